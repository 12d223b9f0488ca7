/**
 * Trace context from the client: a `tools/call` whose `_meta` carries a W3C
 * `traceparent` (and `tracestate`) gets an `mcp.tools/call` server span in the
 * client's trace, a child of the client's span, on the global tracer
 * provider; the tool below sees the context of that span in `scope.trace`.
 * Both eras (a raw 2026-07-28 request, the v1 SDK client's 2025-era session).
 * Malformed trace headers are ignored: the span starts a trace of its own.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createKernel, type Kernel, type KernelPlugin } from '@tool-search/kernel';
import { serveHttp, type HttpMcpHandle, type TraceContext } from '../src/index.js';
import { connectHttp, type Connected } from './helpers.js';

const MODERN = '2026-07-28';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${SPAN_ID}-01`;

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
/** What the tool saw in `scope.trace`, per call. */
const seen: (TraceContext | undefined)[] = [];

const tracedTool: KernelPlugin = {
  name: 'traced-tool',
  apply({ hooks }) {
    hooks.listTools.tap((sink) =>
      sink.add([
        {
          name: 'traced',
          source: 'plugin',
          owner: 'test',
          description: 'Reports the trace context it runs in',
          inputSchema: { type: 'object', properties: {} },
          execute: (_args, ctx) => {
            seen.push(ctx.scope?.trace);
            return { content: [{ type: 'text', text: 'ok' }] };
          },
        },
      ]),
    );
    hooks.materialize.for('directory').tap((draft, ctx) => {
      draft.tools.push(
        ...ctx.searchable.map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          toolId: tool.id,
        })),
      );
      return draft;
    });
  },
};

let kernel: Kernel;
let http: HttpMcpHandle;
let legacy: Connected;

beforeAll(async () => {
  trace.setGlobalTracerProvider(provider);
  kernel = createKernel({ plugins: [tracedTool] });
  http = await serveHttp({ kernel, mode: 'directory', refreshIntervalMs: 0 });
  legacy = await connectHttp(http.url);
});
afterAll(async () => {
  await legacy?.close();
  await http?.close();
  await kernel?.close();
  trace.disable();
  await provider.shutdown();
});
beforeEach(() => {
  exporter.reset();
  seen.length = 0;
});

/** A raw 2026-07-28 `tools/call` of `traced` with `meta` in its `_meta`. */
async function modernCall(meta: Record<string, unknown>): Promise<void> {
  const response = await fetch(http.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'traced',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'traced',
        arguments: {},
        _meta: {
          ...meta,
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  expect(await response.text()).toContain('"ok"');
}

function serverSpan() {
  const spans = exporter.getFinishedSpans().filter((span) => span.name === 'mcp.tools/call');
  expect(spans).toHaveLength(1);
  return spans[0]!;
}

describe('trace context from the client', () => {
  it('puts a 2026-07-28 call in the client trace, under the client span, and hands its own span down', async () => {
    await modernCall({ traceparent: TRACEPARENT, tracestate: 'vendor=abc' });
    const span = serverSpan();
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(SPAN_ID);
    expect(seen).toEqual([{ traceparent: `00-${TRACE_ID}-${span.spanContext().spanId}-01`, tracestate: 'vendor=abc' }]);
  });

  it('does the same for a 2025-era session', async () => {
    await legacy.client.callTool({ name: 'traced', arguments: {}, _meta: { traceparent: TRACEPARENT } });
    const span = serverSpan();
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(SPAN_ID);
    expect(seen[0]?.traceparent).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`);
  });

  it.each([
    ['not hex', `00-${'g'.repeat(32)}-${SPAN_ID}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN_ID}-01`],
    ['an all-zero span id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${TRACE_ID}-${SPAN_ID}-01`],
    ['upper case', TRACEPARENT.toUpperCase()],
    ['not a string', { traceId: TRACE_ID }],
    ['too long', `${TRACEPARENT}-extra`],
  ])('ignores a traceparent that is %s: the call starts its own trace', async (_why, traceparent) => {
    await modernCall({ traceparent });
    const span = serverSpan();
    expect(span.spanContext().traceId).not.toBe(TRACE_ID);
    expect(span.parentSpanContext).toBeUndefined();
    expect(seen[0]?.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });
});
