// Code mode honours a run's `searchLimits` (a per-agent or per-provider toolSearch override) like the tools and
// directory modes do: the limits and the search event come from @tool-search/control-tools for all of them.
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, type RunEvent } from '@tool-search/kernel';
import { CODE_TOOL_NAME, codeModePlugin, type CodeResult } from '../src/index.js';
import { fakeSourcePlugin, pidTracker } from './fixtures.js';

const tracker = pidTracker();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  expect(tracker.alive()).toEqual([]);
});

async function hitsPerQuery(request: Record<string, unknown>): Promise<{ value: number[]; events: RunEvent[] }> {
  const events: RunEvent[] = [];
  const kernel = createKernel({
    plugins: [
      fakeSourcePlugin(),
      codeModePlugin({ codeTimeoutMs: 20_000, searchDefaultLimit: 8, maxSearchLimit: 20, onSpawn: tracker.onSpawn }),
      { name: 'events', apply: ({ hooks }) => hooks.runEvent.tap((event) => void events.push(event)) },
    ],
  });
  const run = await kernel.createRun(request);
  closers.push(async () => {
    await run.close();
    await kernel.close();
  });
  const exposure = await run.exposure('code');
  // "Fake tool" matches every tool of the fixture (36): the limits decide how many come back.
  const code = `const a = await openclaw.tools.search('fake tool'); const b = await openclaw.tools.search('fake tool', { limit: 50 }); return [a.length, b.length];`;
  const outcome = await exposure.call(CODE_TOOL_NAME, { code });
  expect(outcome.status).toBe('ok');
  const result = (outcome as { result: { structuredContent: CodeResult } }).result.structuredContent;
  expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
  return { value: (result as { value: number[] }).value, events };
}

describe('code mode search limits', () => {
  it("uses the mode's own limits when the run sets none", async () => {
    const { value, events } = await hitsPerQuery({});
    expect(value).toEqual([8, 20]);
    // The search event is the shared one: origin code, each query's hits, unique hit ids.
    const searches = events.filter((event) => event.type === 'search');
    expect(searches).toHaveLength(2);
    expect(searches[0]).toMatchObject({
      origin: 'code',
      queries: ['fake tool'],
      results: [{ query: 'fake tool', weak: false }],
    });
    expect(searches[1]?.type === 'search' && searches[1].hits.length).toBe(20);
  });

  it("holds a run's per-agent searchLimits (default and maximum)", async () => {
    expect(
      (await hitsPerQuery({ agentId: 'small', searchLimits: { searchDefaultLimit: 2, maxSearchLimit: 3 } })).value,
    ).toEqual([2, 3]);
  });

  it('keeps the default under a lower per-agent maximum, and ignores a limit that is not a positive integer', async () => {
    expect((await hitsPerQuery({ searchLimits: { maxSearchLimit: 5 } })).value).toEqual([5, 5]);
    expect((await hitsPerQuery({ searchLimits: { searchDefaultLimit: 0, maxSearchLimit: -1 } })).value).toEqual([
      8, 20,
    ]);
  });
});
