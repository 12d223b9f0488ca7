import { createKernel, type KernelPlugin, type ToolDescriptor } from '@tool-search/kernel';
// The search event's type is declared by @tool-search/search (a run-event augmentation).
import type {} from '@tool-search/search';
import { MemoryStateStore } from '@tool-search/state';
import { describe, expect, it } from 'vitest';
import { CatalogWatch } from '../src/catalog.js';
import { metricsPlugin } from '../src/index.js';

const schema = { type: 'object', properties: {}, additionalProperties: false };
const tools: KernelPlugin = {
  name: 'test-tools',
  apply({ hooks }) {
    hooks.listTools.tap((sink) => {
      sink.add({
        name: 'fine',
        source: 'plugin',
        owner: 'test',
        description: 'works',
        inputSchema: schema,
        execute: () => ({ content: [{ type: 'text', text: 'ok' }] }),
      });
      sink.add({
        name: 'broken',
        source: 'plugin',
        owner: 'test',
        description: 'throws',
        inputSchema: schema,
        execute: () => {
          throw new Error('boom');
        },
      });
    });
  },
};

/** A histogram's values carry the series name (`_bucket`, `_sum`, `_count`), untyped in prom-client's types. */
const nameOf = (value: object) => String((value as { metricName?: string }).metricName);

async function values(plugin: ReturnType<typeof metricsPlugin>, name: string) {
  return (await plugin.registry.getSingleMetric(name)!.get()).values;
}

describe('metricsPlugin', () => {
  it('counts runs, calls by source and status, errors by code, timed searches, and reads gauges at scrape time', async () => {
    const state = new MemoryStateStore();
    const metrics = metricsPlugin({ frontEnd: 'test', state, sessions: () => 3 });
    const kernel = createKernel({ plugins: [tools, metrics] });
    const run = await kernel.createRun({ sessionId: 's1' });
    expect((await run.call('fine', {})).status).toBe('ok');
    const failed = await run.call('broken', {});
    expect(failed.status).toBe('error');
    run.emit({ type: 'search', queries: ['x'], hits: [], origin: 'tool_call', durationMs: 4 });
    run.emit({ type: 'search', queries: ['y'], hits: [], origin: 'code' }); // untimed: not observed
    await run.close();

    expect((await values(metrics, 'tool_search_turns_total'))[0]!.value).toBe(1);
    const calls = await values(metrics, 'tool_search_tool_calls_total');
    expect(calls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ labels: { source: 'plugin', status: 'ok' }, value: 1 }),
        expect.objectContaining({ labels: { source: 'plugin', status: 'error' }, value: 1 }),
      ]),
    );
    const code = failed.status === 'error' ? failed.error.code : '';
    expect(await values(metrics, 'tool_search_tool_call_errors_total')).toEqual([
      expect.objectContaining({ labels: { code }, value: 1 }),
    ]);
    const searches = await values(metrics, 'tool_search_search_duration_seconds');
    expect(searches.find((v) => nameOf(v).endsWith('_count'))).toMatchObject({
      labels: { origin: 'tool_call' },
      value: 1,
    });
    expect(searches.find((v) => nameOf(v).endsWith('_sum'))!.value).toBe(0.004);
    expect((await values(metrics, 'tool_search_catalog_tools'))[0]!.value).toBe(2);
    expect((await values(metrics, 'tool_search_catalog_generation'))[0]!.value).toBe(1);
    expect((await values(metrics, 'tool_search_sessions'))[0]!.value).toBe(3);
    expect((await values(metrics, 'tool_search_state_up'))[0]).toMatchObject({ labels: { kind: 'memory' }, value: 1 });
    const text = await metrics.registry.metrics();
    expect(text).toContain('tool_search_turns_total{front_end="test"} 1');
    await kernel.close();
  });

  it('state_up is 0 while the store does not answer; a new catalog is a new generation', async () => {
    const state = new MemoryStateStore();
    state.ping = async () => false;
    const metrics = metricsPlugin({ frontEnd: 'test', state });
    expect((await values(metrics, 'tool_search_state_up'))[0]!.value).toBe(0);
    // A sessions source that fails (its store is down) leaves the scrape whole.
    let count = 2;
    metrics.setSessions(async () => {
      if (count < 0) throw new Error('store down');
      return count;
    });
    expect((await values(metrics, 'tool_search_sessions'))[0]!.value).toBe(2);
    count = -1;
    expect((await values(metrics, 'tool_search_sessions'))[0]!.value).toBe(2);
    expect(await metrics.registry.metrics()).toContain('tool_search_state_up{kind="memory",front_end="test"} 0');
    // Before any run: no catalog seen yet.
    expect((await values(metrics, 'tool_search_catalog_generation'))[0]!.value).toBe(0);
    expect((await values(metrics, 'tool_search_catalog_age_seconds'))[0]!.value).toBe(0);
    const watch = new CatalogWatch();
    const tool = (id: string) => ({ id }) as ToolDescriptor;
    watch.see([tool('a'), tool('b')], 1000);
    watch.see([tool('b'), tool('a')], 2000); // the same set, in another order
    expect([watch.generation, watch.changedAt]).toEqual([1, 1000]);
    watch.see([tool('a')], 3000);
    expect([watch.generation, watch.changedAt, watch.size]).toEqual([2, 3000, 1]);
  });
});
