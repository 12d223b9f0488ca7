/**
 * W3C trace context from the client (`_meta.traceparent` / `_meta.tracestate`,
 * as the 2026-07-28 spec and the SDKs' `TRACEPARENT_META_KEY` name them; the
 * same keys on 2025-era requests). Each `tools/call` gets an OpenTelemetry
 * server span, `mcp.tools/call`, a child of the client's span, on the global
 * tracer provider (what `@tool-search/otel-export` registers), and the call's
 * scope carries the context of that span (`scope.trace`) for the tools below
 * it, so their spans and the downstream servers' join the client's trace.
 * A malformed header is ignored (the span starts a new trace), never trusted.
 */
import { createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type SpanContext } from '@opentelemetry/api';
import { errorMessage } from '@tool-search/kernel';
import type { McpCallTrace } from '@tool-search/plugin-mcp';

/** A W3C trace context, as `_meta` carries it: plugin-mcp's, which declares `CallScope.trace` (filled here). */
export type TraceContext = McpCallTrace;

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const MAX_TRACESTATE_CHARS = 512;
const tracer = () => trace.getTracer('@tool-search/mcp-server');

/** The first valid trace context among `metas` (a request's `_meta`, the 2026-07-28 envelope); malformed ones are skipped. */
export function traceContextOf(...metas: unknown[]): TraceContext | undefined {
  for (const meta of metas) {
    if (!meta || typeof meta !== 'object') continue;
    const { traceparent, tracestate } = meta as { traceparent?: unknown; tracestate?: unknown };
    if (typeof traceparent !== 'string' || !spanContextOf(traceparent)) continue;
    const state = typeof tracestate === 'string' && tracestate.length <= MAX_TRACESTATE_CHARS ? tracestate : undefined;
    return { traceparent, ...(state ? { tracestate: state } : {}) };
  }
  return undefined;
}

/**
 * Runs `call` inside an `mcp.tools/call` server span (a child of `parent` when given); `call` gets the context to
 * hand down. The span ends with the call, in error when the result is an error.
 */
export async function traced<T extends { isError?: boolean }>(
  parent: TraceContext | undefined,
  attributes: Record<string, string>,
  call: (context: TraceContext | undefined) => Promise<T>,
): Promise<T> {
  const remote = parent ? spanContextOf(parent.traceparent, parent.tracestate) : undefined;
  const span = tracer().startSpan(
    'mcp.tools/call',
    { kind: SpanKind.SERVER, attributes },
    remote ? trace.setSpanContext(ROOT_CONTEXT, remote) : ROOT_CONTEXT,
  );
  const own = span.spanContext();
  // No tracer provider registered: the span is the parent's (or invalid): hand the client's context down as it came.
  const handed = trace.isSpanContextValid(own) && own.spanId !== remote?.spanId ? toTraceContext(own) : parent;
  try {
    const result = await call(handed);
    if (result.isError) span.setStatus({ code: SpanStatusCode.ERROR });
    return result;
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
    throw error;
  } finally {
    span.end();
  }
}

function spanContextOf(traceparent: string, tracestate?: string): SpanContext | undefined {
  const match = TRACEPARENT.exec(traceparent);
  if (!match) return undefined;
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string];
  const context: SpanContext = {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16),
    isRemote: true,
    ...(tracestate ? { traceState: createTraceState(tracestate) } : {}),
  };
  // Version ff is invalid; all-zero ids are invalid (W3C Trace Context, section 3.2).
  return version !== 'ff' && trace.isSpanContextValid(context) ? context : undefined;
}

function toTraceContext(context: SpanContext): TraceContext {
  const tracestate = context.traceState?.serialize();
  return {
    traceparent: `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 0xff).toString(16).padStart(2, '0')}`,
    ...(tracestate ? { tracestate } : {}),
  };
}
