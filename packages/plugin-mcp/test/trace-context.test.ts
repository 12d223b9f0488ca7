/**
 * W3C trace context in the request `_meta` of tool calls, in both protocol eras, against a real v2-SDK server that
 * answers with the `_meta` it received (test/fixtures/meta-server.mjs): from the run, from the call's scope (`CallScope.trace`, as `serve mcp` fills it), from
 * the active OpenTelemetry span; malformed values are not sent.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { fileURLToPath } from 'node:url';
import { context, ROOT_CONTEXT, trace, TraceFlags, type Context, type ContextManager } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type RunRequest } from '@tool-search/kernel';
import { mcpPlugin, type McpCallTrace } from '../src/index.js';

const META_SERVER = fileURLToPath(new URL('./fixtures/meta-server.mjs', import.meta.url));
const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const OTHER = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00';

/** The smallest real context manager (what @opentelemetry/context-async-hooks does): AsyncLocalStorage. */
class StorageContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

describe.each(['2026-07-28', '2025-11-25'] as const)('trace context to a server spoken to in %s', (protocol) => {
  let kernel: Kernel;
  const mcp = mcpPlugin({ servers: { rec: { command: process.execPath, args: [META_SERVER], protocol } } });

  /** The `_meta` the server saw on a `meta` call in a run made with `request`. */
  async function seen(request: RunRequest, scope?: { trace: McpCallTrace }): Promise<Record<string, unknown>> {
    const run = await kernel.createRun(request);
    const outcome = await run.call('mcp:rec:meta', {}, scope ? { scope } : {});
    expect(outcome).toMatchObject({ status: 'ok' });
    return JSON.parse((outcome as unknown as { result: { content: Array<{ text: string }> } }).result.content[0]!.text);
  }

  beforeAll(async () => {
    kernel = createKernel({ plugins: [mcp] });
    const run = await kernel.createRun();
    expect(run.diagnostics).toEqual([]);
    expect(mcp.servers()).toContainEqual(expect.objectContaining({ name: 'rec', protocolVersion: protocol }));
  });
  afterAll(() => kernel.close());

  it("sends the run's traceparent, tracestate and baggage", async () => {
    const meta = await seen({
      traceContext: {
        traceparent: PARENT,
        tracestate: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
        baggage: 'userId=alice',
      },
    });
    expect(meta).toMatchObject({
      traceparent: PARENT,
      tracestate: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
      baggage: 'userId=alice',
    });
  });

  it('sends nothing when the run has no trace context', async () => {
    const meta = await seen({});
    expect(meta).not.toHaveProperty('traceparent');
    expect(meta).not.toHaveProperty('tracestate');
  });

  it("prefers the call's own trace context to the run's", async () => {
    const meta = await seen(
      { traceContext: { traceparent: PARENT, tracestate: 'run=1' } },
      { trace: { traceparent: OTHER } },
    );
    expect(meta).toMatchObject({ traceparent: OTHER });
    expect(meta).not.toHaveProperty('tracestate');
  });

  it('sends the active OpenTelemetry span as parent, over the run', async () => {
    const manager = new StorageContextManager();
    expect(context.setGlobalContextManager(manager)).toBe(true);
    try {
      const span = trace.wrapSpanContext({
        traceId: '5759e988bd862e3fe1be46a994272793',
        spanId: '53995c3f42cd8ad8',
        traceFlags: TraceFlags.SAMPLED,
      });
      const meta = await context.with(trace.setSpan(context.active(), span), () =>
        seen({ traceContext: { traceparent: PARENT } }),
      );
      expect(meta).toMatchObject({ traceparent: '00-5759e988bd862e3fe1be46a994272793-53995c3f42cd8ad8-01' });
    } finally {
      context.disable();
    }
  });

  it.each([
    ['an all-zero trace id', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    ['an all-zero parent id', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
    ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['upper case', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01'],
    ['a header injection', `${PARENT}\r\nx-evil: 1`],
    ['a wrong shape', 'not-a-traceparent'],
  ])('does not send a traceparent with %s', async (_why, traceparent) => {
    const meta = await seen({ traceContext: { traceparent, tracestate: 'a=b' } });
    expect(meta).not.toHaveProperty('traceparent');
    expect(meta).not.toHaveProperty('tracestate');
  });

  it('drops a tracestate with control characters or past the bound, and keeps the traceparent', async () => {
    expect(await seen({ traceContext: { traceparent: PARENT, tracestate: 'a=b\nc=d' } })).not.toHaveProperty(
      'tracestate',
    );
    const meta = await seen({ traceContext: { traceparent: PARENT, tracestate: 'a='.padEnd(9_000, 'x') } });
    expect(meta).toMatchObject({ traceparent: PARENT });
    expect(meta).not.toHaveProperty('tracestate');
  });
});
