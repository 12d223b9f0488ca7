/** A conversation's loaded tools in the state store: shared by replicas, ordered, bounded, kept for a TTL. */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateBackends } from '@tool-search/testing';
import { connectRedisState, loadedTools, memoryReplicas, type StateStore } from '../src/index.js';

const backends = stateBackends<StateStore>('the loaded tools tests', {
  memory: memoryReplicas,
  redis: connectRedisState,
});
afterAll(() => backends.close());

describe.each(backends.kinds)('%s store', (kind) => {
  let a: StateStore;
  let b: StateStore;
  beforeAll(async () => {
    [a, b] = await backends.pair(kind);
  });

  it('a load on one replica is read on the other, in load order, each name once', async () => {
    await loadedTools(a).add('conv-1', ['search_issues', 'create_issue']);
    await loadedTools(b).add('conv-1', ['create_issue', 'close_issue']);
    expect(await loadedTools(a).read('conv-1')).toEqual(['search_issues', 'create_issue', 'close_issue']);
    expect(await loadedTools(b).read('conv-2')).toEqual([]);
  });

  it('keeps the newest maxTools loads, for ttlMs after the last', async () => {
    const bounded = loadedTools(a, { maxTools: 2, ttlMs: 60_000 });
    await bounded.add('conv-3', ['t1', 't2', 't3']);
    expect(await bounded.read('conv-3')).toEqual(['t2', 't3']);
    const short = loadedTools(a, { ttlMs: 50 });
    await short.add('conv-4', ['t1']);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await short.read('conv-4')).toEqual([]);
  });

  it('a record that is not a list of names reads as empty', async () => {
    const key = `loaded-tools:${createHash('sha256').update('conv-5').digest('hex')}`;
    await a.set(key, '{"not":"a list"}', { ttlMs: 60_000 });
    const ids = loadedTools(a);
    expect(await ids.read('conv-5')).toEqual([]);
    // A name no provider accepts (too long) is not stored.
    await ids.add('conv-5', ['ok', 'x'.repeat(300)]);
    expect(await ids.read('conv-5')).toEqual(['ok']);
  });
});
