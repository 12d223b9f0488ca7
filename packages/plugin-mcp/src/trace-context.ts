/**
 * W3C Trace Context in MCP request `_meta` (SEP-414; the 2026-07-28 spec's
 * `traceparent`, `tracestate` and `baggage` keys, also sent to 2025-era
 * servers, which carry `_meta` through). Where it comes from, most specific
 * first: the call's `CallScope.trace` (a front end's span for the call, e.g.
 * `serve mcp` passing on its client's), the active OpenTelemetry span (a host
 * that runs calls inside its own spans), the run's `RunRequest.traceContext`. A malformed value is
 * not sent (`traceparent` per the W3C grammar, lengths bounded).
 */
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { BAGGAGE_META_KEY, TRACEPARENT_META_KEY, TRACESTATE_META_KEY } from '@modelcontextprotocol/client';
import type { ExecuteContext } from '@tool-search/kernel';

/** W3C Trace Context of one call: the `traceparent` header value and the optional `tracestate`. */
export interface McpCallTrace {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** W3C Trace Context of a run: `traceparent`, `tracestate` and W3C `baggage`. */
export interface McpTraceContext extends McpCallTrace {
  readonly baggage?: string;
}

declare module '@tool-search/kernel' {
  interface RunRequest {
    /** The run's W3C trace context (e.g. from the request that started it); MCP tool calls carry it in `_meta`. */
    readonly traceContext?: McpTraceContext;
  }
  interface CallScope {
    /**
     * This call's W3C trace context (a front end's span for the call); wins over the active span and the run's.
     * `@tool-search/mcp-server` fills it for its clients' calls.
     */
    readonly trace?: McpCallTrace;
  }
}

/** version 00..fe, 32-hex trace id and 16-hex parent id (neither all zeros), 2-hex flags (W3C Trace Context §3.2). */
const TRACEPARENT = /^(?!ff)[0-9a-f]{2}-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;
/** 32 list members of at most ~256 characters (W3C §3.3); printable ASCII only. */
const MAX_TRACESTATE = 8_192;
/** W3C Baggage §3.3.3: at most 8,192 bytes. */
const MAX_BAGGAGE = 8_192;
const PRINTABLE = /^[\x20-\x7e]*$/;

/** The `_meta` entries for a call, or `undefined` when there is no (valid) trace context. */
export function traceMeta(ctx: Pick<ExecuteContext, 'run' | 'scope'> | undefined): Record<string, string> | undefined {
  const found: McpTraceContext | undefined = ctx?.scope?.trace ?? activeSpanContext() ?? ctx?.run.request.traceContext;
  if (!found || typeof found.traceparent !== 'string' || !TRACEPARENT.test(found.traceparent)) return undefined;
  const meta: Record<string, string> = { [TRACEPARENT_META_KEY]: found.traceparent };
  if (bounded(found.tracestate, MAX_TRACESTATE)) meta[TRACESTATE_META_KEY] = found.tracestate;
  if (bounded(found.baggage, MAX_BAGGAGE)) meta[BAGGAGE_META_KEY] = found.baggage;
  return meta;
}

function bounded(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max && PRINTABLE.test(value);
}

function activeSpanContext(): McpCallTrace | undefined {
  const span = trace.getSpanContext(context.active());
  if (!span || !trace.isSpanContextValid(span)) return undefined;
  const flags = (span.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  const state = span.traceState?.serialize();
  return { traceparent: `00-${span.traceId}-${span.spanId}-${flags}`, ...(state ? { tracestate: state } : {}) };
}
