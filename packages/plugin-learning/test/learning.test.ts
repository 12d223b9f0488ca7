/**
 * The learned signal end to end on a real kernel: runs search through the run's rerank hooks, call, and the next
 * runs' searches change. In-process state here; Redis in replicas.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStateStore } from '@tool-search/state';
import { learningPlugin } from '../src/index.js';
import { diagnostics, kernelWith, QUERY, search, TARGET, teach } from './helpers.js';

const DAY_MS = 86_400_000;

describe('learning from the deployment', () => {
  it('lifts a tool that users keep choosing at rank 6 for a query, for that query', async () => {
    const kernel = kernelWith(learningPlugin());
    const before = await search(await kernel.createRun({ sessionId: 'before' }));
    expect(before.ids.indexOf(TARGET) + 1).toBe(6);
    expect(before.ranker).toBe('bm25f');

    await teach(kernel, 1);
    // Once is not "repeatedly": still sixth.
    expect((await search(await kernel.createRun({ sessionId: 'once' }))).ids.indexOf(TARGET) + 1).toBe(6);

    await teach(kernel, 2);
    const after = await search(await kernel.createRun({ sessionId: 'after' }));
    expect(after.ids[0]).toBe(TARGET);
    expect(after.ranker).toBe('bm25f+learned');
    // The other tools keep their lexical order below it.
    expect(after.ids.filter((id) => id !== TARGET)).toEqual(before.ids.filter((id) => id !== TARGET));
    // A query that shares no word with the traffic is not touched.
    const unrelated = await search(await kernel.createRun({ sessionId: 'unrelated' }), 'refund a payment');
    expect(unrelated.ranker).toBe('bm25f');
    await kernel.close();
  });

  it('does not move the first hit when users call the tool ranked first', async () => {
    const kernel = kernelWith(learningPlugin());
    const first = (await search(await kernel.createRun({ sessionId: 'b' }))).ids[0]!;
    await teach(kernel, 4, undefined, first);
    expect((await search(await kernel.createRun({ sessionId: 'a' }))).ids[0]).toBe(first);
    await kernel.close();
  });

  it('never reveals a tool the run may not see, even when another agent taught it (deployment scope)', async () => {
    const kernel = kernelWith(learningPlugin({ scope: 'deployment' }));
    await teach(kernel, 4, 'teacher');
    expect((await search(await kernel.createRun({ sessionId: 't', agentId: 'teacher' }))).ids[0]).toBe(TARGET);

    const denied = await kernel.createRun({ sessionId: 'd', agentId: 'no-cold-storage' });
    for (const query of [QUERY, 'move to cold storage', 'cold storage', 'select:move_to_cold_storage']) {
      const { ids } = await search(denied, query, 20);
      expect(ids).not.toContain(TARGET);
    }
    expect(denied.catalog.map((tool) => tool.id)).not.toContain(TARGET);
    await kernel.close();
  });

  it("keeps each agent's learning to that agent (agent scope, the default)", async () => {
    const kernel = kernelWith(learningPlugin());
    await teach(kernel, 4, 'agent-a');
    expect((await search(await kernel.createRun({ sessionId: 'a', agentId: 'agent-a' }))).ids[0]).toBe(TARGET);
    const b = await search(await kernel.createRun({ sessionId: 'b', agentId: 'agent-b' }));
    expect(b.ids.indexOf(TARGET) + 1).toBe(6);
    expect(b.ranker).toBe('bm25f');
    // No agent id is a scope of its own, not a window into the agents'.
    expect((await search(await kernel.createRun({ sessionId: 'none' }))).ids.indexOf(TARGET) + 1).toBe(6);
    await kernel.close();
  });

  it('forgets with time: calls lose half their weight every half-life', async () => {
    let now = Date.UTC(2026, 0, 1);
    const kernel = kernelWith(learningPlugin({ halfLifeDays: 1, refreshMs: 0, now: () => now }));
    await teach(kernel, 3);
    expect((await search(await kernel.createRun({ sessionId: 'fresh' }))).ids[0]).toBe(TARGET);
    // One day later the three calls weigh 1.5: under the two calls "repeatedly" needs.
    now += DAY_MS;
    expect((await search(await kernel.createRun({ sessionId: 'day' }))).ids.indexOf(TARGET) + 1).toBe(6);
    // New calls count in full again.
    await teach(kernel, 2);
    expect((await search(await kernel.createRun({ sessionId: 'again' }))).ids[0]).toBe(TARGET);
    await kernel.close();
  });

  it('keeps at most maxEntries calls per scope, dropping the oldest', async () => {
    const state = new MemoryStateStore();
    const plugin = learningPlugin({ maxEntries: 5, refreshMs: 0, state });
    const kernel = kernelWith(plugin);
    await teach(kernel, 3);
    expect((await search(await kernel.createRun({ sessionId: 'x' }))).ids[0]).toBe(TARGET);
    // Five later calls of another tool for the same words push the three out.
    await teach(kernel, 5, undefined, 'plugin:billing:export_ledger');
    const key = plugin.scopeOf({ request: {} });
    const stored = await state.range(key);
    expect(stored).toHaveLength(5);
    expect(stored.every((entry) => (JSON.parse(entry) as { id: string }).id === 'plugin:billing:export_ledger')).toBe(
      true,
    );
    const { ids } = await search(await kernel.createRun({ sessionId: 'y' }));
    expect(ids[0]).toBe('plugin:billing:export_ledger');
    expect(ids.indexOf(TARGET)).toBeGreaterThan(0);
    // The key holds stems and an id, never the query's text.
    expect(stored[0]).not.toContain(QUERY);
    await kernel.close();
  });

  it('skips malformed entries a shared store may hold', async () => {
    const state = new MemoryStateStore();
    const plugin = learningPlugin({ state });
    const key = plugin.scopeOf({ request: {} });
    await state.append(key, ['not json', '{"t":"x"}', JSON.stringify({ t: Date.now(), w: [{}], id: TARGET }), '[]'], {
      max: 10,
      ttlMs: 60_000,
    });
    const seen = diagnostics();
    const kernel = kernelWith(plugin, seen);
    const { ids } = await search(await kernel.createRun({ sessionId: 'm' }));
    expect(ids.indexOf(TARGET) + 1).toBe(6);
    expect(seen.seen).toEqual([]);
    await kernel.close();
  });

  it('learns nothing from blocked calls or from calls without a search before them', async () => {
    const kernel = kernelWith(learningPlugin());
    for (let i = 0; i < 3; i++) {
      const run = await kernel.createRun({ sessionId: `n${i}` });
      await run.call(TARGET, {}, { origin: 'tool_call' });
      await run.close();
    }
    for (let i = 0; i < 3; i++) {
      const blocked = await kernel.createRun({ sessionId: `blocked-${i}` });
      await search(blocked);
      expect((await blocked.call(TARGET, {}, { origin: 'tool_call' })).status).toBe('blocked');
    }
    expect((await search(await kernel.createRun({ sessionId: 'check' }))).ids.indexOf(TARGET) + 1).toBe(6);
    await kernel.close();
  });

  it('keeps a tool the query names first', async () => {
    const kernel = kernelWith(learningPlugin());
    await teach(kernel, 4, undefined, TARGET, 'archive_invoice');
    const { ids } = await search(await kernel.createRun({ sessionId: 'named' }), 'archive_invoice');
    expect(ids[0]).toBe('plugin:billing:archive_invoice');
    await kernel.close();
  });

  it('refuses bad options with a typed error', () => {
    expect(() => learningPlugin({ scope: 'everyone' as never })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID', path: 'scope' }),
    );
    expect(() => learningPlugin({ halfLifeDays: 0 })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID', path: 'halfLifeDays' }),
    );
    expect(() => learningPlugin({ maxEntries: 1.5 })).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
    expect(() => learningPlugin({ state: {} as never })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID', path: 'state' }),
    );
  });

  it('taps nothing when disabled', async () => {
    const kernel = kernelWith(learningPlugin({ enabled: false }));
    await teach(kernel, 4);
    expect((await search(await kernel.createRun({ sessionId: 'off' }))).ids.indexOf(TARGET) + 1).toBe(6);
    await kernel.close();
  });
});
