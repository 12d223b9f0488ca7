/**
 * The preset composes `@tool-search/plugin-learning` by default: `tool_search` then `tool_call` through the tools
 * mode teaches the next runs' `tool_search`, across replicas sharing the `state` store; `learning: false` turns it off.
 */
import { describe, expect, it } from 'vitest';
import { LEARNING_QUERY, LEARNING_TARGET, learningCatalog } from '@tool-search/testing';
import type { Kernel, KernelPlugin, RunEvent } from '@tool-search/kernel';
import type { ToolSearchConfig } from '@tool-search/config';
import { createToolSearchKernel } from '@tool-search/preset';
import { memoryReplicas, type StateStore } from '@tool-search/state';

const QUERY = LEARNING_QUERY;
const TARGET = LEARNING_TARGET;
const billing = learningCatalog();

async function presetKernel(learning: unknown, state?: StateStore, events: RunEvent[] = []): Promise<Kernel> {
  const observer: KernelPlugin = {
    name: 'observer',
    apply: ({ hooks }) => hooks.runEvent.tap((event) => void events.push(event)),
  };
  const config = {
    plugins: {},
    tools: { toolSearch: { mode: 'tools', ...(learning === undefined ? {} : { learning }) } },
  } as ToolSearchConfig;
  return (await createToolSearchKernel(config, { plugins: [billing, observer], ...(state ? { state } : {}) })).kernel;
}

async function searchIds(
  kernel: Kernel,
  sessionId: string,
  events: RunEvent[],
): Promise<{ ids: string[]; ranker: string | undefined }> {
  const run = await kernel.createRun({ sessionId });
  const exposure = await run.exposure('tools');
  const before = events.length;
  expect((await exposure.call('tool_search', { query: QUERY })).status).toBe('ok');
  const event = events.slice(before).find((e): e is Extract<RunEvent, { type: 'search' }> => e.type === 'search')!;
  return { ids: [...event.hits], ranker: event.ranker?.id };
}

async function teach(kernel: Kernel, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const run = await kernel.createRun({ sessionId: `teach-${i}` });
    const exposure = await run.exposure('tools');
    expect((await exposure.call('tool_search', { query: QUERY })).status).toBe('ok');
    expect((await exposure.call('tool_call', { id: TARGET, args: {} })).status).toBe('ok');
    await run.close();
  }
}

describe('tools.toolSearch.learning in the preset', () => {
  it('is on by default: calls after tool_search lift the tool for the next searches, on another replica too', async () => {
    const [a, b] = memoryReplicas(['a', 'b']);
    const events: RunEvent[] = [];
    const first = await presetKernel(undefined, a, events);
    const second = await presetKernel(undefined, b, events);
    expect((await searchIds(second, 'before', events)).ids.indexOf(TARGET) + 1).toBe(6);
    await teach(first, 3);
    const after = await searchIds(first, 'after', events);
    expect(after.ids[0]).toBe(TARGET);
    expect(after.ranker).toBe('bm25f+learned');
    // The other replica re-reads the shared list in the background: a few searches at most.
    let seen: string[] = [];
    for (let i = 0; i < 50 && seen[0] !== TARGET; i++) {
      seen = (await searchIds(second, `b-${i}`, events)).ids;
      if (seen[0] !== TARGET) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(seen[0]).toBe(TARGET);
    await Promise.all([first.close(), second.close()]);
  }, 60_000);

  it('learning: false leaves the ranking lexical', async () => {
    const events: RunEvent[] = [];
    const kernel = await presetKernel(false, undefined, events);
    await teach(kernel, 3);
    const after = await searchIds(kernel, 'after', events);
    expect(after.ids.indexOf(TARGET) + 1).toBe(6);
    expect(after.ranker).toBe('bm25f');
    await kernel.close();
  });
});
