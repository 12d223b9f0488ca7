// Per-session counters in the shared store: two replicas' telemetry plugins add to one session's numbers.
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode, ToolSearchError, type KernelPlugin } from '@tool-search/kernel';
import { memoryReplicas, connectRedisState, MemoryStateStore, type StateStore, StateErrors } from '@tool-search/state';
import { stateBackends } from '@tool-search/testing';
import { providerRequestEvent, sessionCounters, telemetryPlugin } from '@tool-search/telemetry';
import { fakeTool, kernelWith, openAIBody } from './helpers.js';

/** A tool whose call fails (an error outcome). */
const failing: KernelPlugin = {
  name: 'test-failing',
  apply({ hooks }) {
    hooks.listTools.tap((sink) =>
      sink.add([
        {
          ...fakeTool('broken'),
          execute: () => Promise.reject(new ToolSearchError(ErrorCode.TOOL_EXECUTION_FAILED, 'broken')),
        },
      ]),
    );
  },
};

function replicaKernel(state: StateStore, tokenizer: 'o200k_base' | false = false) {
  const telemetry = telemetryPlugin({ state, tokenizer });
  return { kernel: kernelWith(failing, telemetry), telemetry };
}

const backends = stateBackends<StateStore>('the session counter tests', {
  memory: memoryReplicas,
  redis: connectRedisState,
});
afterAll(() => backends.close());
const views = (kind: 'memory' | 'redis') =>
  backends.views(kind, ['gw-a', 'gw-b', 'gw-c']) as Promise<[StateStore, StateStore, StateStore]>;

describe.each(backends.kinds)('session counters over a %s store', (kind) => {
  it('calls, errors, blocked, searches and zero-hit searches of one session add up across replicas', async () => {
    const [shared, second, reader] = await views(kind);
    const a = replicaKernel(shared);
    const b = replicaKernel(second);
    const onA = await a.kernel.createRun({ sessionId: 's1' });
    onA.emit({ type: 'search', queries: ['alpha'], hits: [], origin: 'tool_call' });
    await onA.call('alpha', {});
    await onA.call('beta', {}); // blocked by the test blocker
    await onA.close();
    const onB = await b.kernel.createRun({ sessionId: 's1' });
    onB.emit({
      type: 'search',
      queries: ['alpha'],
      hits: [{ id: 'plugin:fake:alpha', score: 1 } as never],
      origin: 'tool_call',
    });
    await onB.call('alpha', {});
    await onB.call('broken', {});
    await onB.close();
    const other = await b.kernel.createRun({ sessionId: 's2' });
    await other.call('alpha', {});
    await other.close();
    await Promise.all([a.telemetry.flush(), b.telemetry.flush()]);
    expect(await sessionCounters(shared, 's1')).toEqual({
      calls: 4,
      errors: 1,
      blocked: 1,
      searches: 2,
      zeroHitSearches: 1,
      requests: 0,
      tokens: 0,
    });
    expect(await sessionCounters(reader, 's2')).toMatchObject({ calls: 1, errors: 0 });
    expect(await sessionCounters(shared, 'never-seen')).toEqual({
      calls: 0,
      errors: 0,
      blocked: 0,
      searches: 0,
      zeroHitSearches: 0,
      requests: 0,
      tokens: 0,
    });
  });
});

describe('session counters', () => {
  it('counts provider requests and their tokens', async () => {
    const state = new MemoryStateStore();
    const { kernel, telemetry } = replicaKernel(state, 'o200k_base');
    const run = await kernel.createRun({ sessionId: 's' });
    run.emit(providerRequestEvent('tools', openAIBody));
    await run.close();
    await telemetry.flush();
    const counted = await sessionCounters(state, 's');
    expect(counted.requests).toBe(1);
    const entry = telemetry.entries('s').find((e) => e.type === 'provider-request') as { tokens: { request: number } };
    expect(counted.tokens).toBe(entry.tokens.request);
    expect(counted.tokens).toBeGreaterThan(0);
  });

  it('counters expire after their TTL (every key has one)', async () => {
    let now = 0;
    const state = new MemoryStateStore({ now: () => now });
    const plugin = telemetryPlugin({ state, tokenizer: false, countersTtlMs: 60_000 });
    const short = kernelWith(plugin);
    const run = await short.createRun({ sessionId: 's' });
    await run.call('alpha', {});
    await run.close();
    await plugin.flush();
    expect((await sessionCounters(state, 's')).calls).toBe(1);
    now += 60_001;
    expect((await sessionCounters(state, 's')).calls).toBe(0);
  });

  it('a store that is down costs the numbers, never the call', async () => {
    const state = new MemoryStateStore();
    const down = new Proxy(state, {
      get(target, prop) {
        if (prop === 'increment')
          return async () => Promise.reject(new ToolSearchError(StateErrors.STATE_UNAVAILABLE, 'down'));
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const { kernel, telemetry } = replicaKernel(down);
    const run = await kernel.createRun({ sessionId: 's' });
    expect((await run.call('alpha', {})).status).toBe('ok');
    await run.close();
    await telemetry.flush();
    expect((await sessionCounters(state, 's')).calls).toBe(0);
  });

  it('rejects a bad countersTtlMs at registration', () => {
    expect(() => telemetryPlugin({ countersTtlMs: 5 })).toThrow(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID }),
    );
  });
});
