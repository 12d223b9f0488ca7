/**
 * Search-quality telemetry: each search entry carries its queries' hit
 * counts, weak/zero-hit flags and the ranker; each call entry the rank of the
 * called tool in the run's latest search (or "not searched"); the session
 * summary the zero-hit rate and the mean rank of called tools.
 */
import { describe, expect, it } from 'vitest';
import {
  readSessionLog,
  summarizeSession,
  telemetryPlugin,
  type SearchEntry,
  type ToolCallEntry,
} from '@tool-search/telemetry';
import { kernelWith, tempDir } from './helpers.js';

const ranker = { id: 'bm25f', version: '2' };

async function session() {
  const dir = await tempDir();
  const telemetry = telemetryPlugin({ sessionLog: { dir }, tokenizer: false });
  const kernel = kernelWith(telemetry);
  const run = await kernel.createRun({ sessionId: 'quality' });
  await run.call('beta', {}, { origin: 'direct' }); // before any search
  run.emit({
    type: 'search',
    queries: ['alpha things', 'nothing at all'],
    hits: ['plugin:fake:beta', 'plugin:fake:alpha'],
    origin: 'tool_call',
    ranker,
    results: [
      { query: 'alpha things', hits: ['plugin:fake:beta', 'plugin:fake:alpha'], weak: false },
      { query: 'nothing at all', hits: [], weak: true },
    ],
  });
  await run.call('alpha', {}, { origin: 'tool_call' }); // rank 2
  await run.call('files_read', {}, { origin: 'tool_call' }); // searched, not found
  run.emit({
    type: 'search',
    queries: ['files'],
    hits: ['mcp:files:files_read'],
    origin: 'tool_call',
    ranker,
    results: [{ query: 'files', hits: ['mcp:files:files_read'], weak: true }],
  });
  await run.call('files_read', {}, { origin: 'tool_call' }); // rank 1 in the latest search
  await run.close();
  await kernel.close();
  return readSessionLog(telemetry.sessionLogFile('quality')!);
}

describe('search-quality telemetry', () => {
  it('logs per search the ranker and, per query, hit count, hits and weak/zero-hit flags', async () => {
    const searches = (await session()).filter((entry): entry is SearchEntry => entry.type === 'search');
    expect(searches[0]).toMatchObject({
      ranker,
      results: [
        {
          query: 'alpha things',
          hitCount: 2,
          hits: ['plugin:fake:beta', 'plugin:fake:alpha'],
          weak: false,
          zeroHit: false,
        },
        { query: 'nothing at all', hitCount: 0, hits: [], weak: true, zeroHit: true },
      ],
    });
    expect(searches[1]!.results).toEqual([
      { query: 'files', hitCount: 1, hits: ['mcp:files:files_read'], weak: true, zeroHit: false },
    ]);
  });

  it('logs per call the rank in the latest search, "not in results" or "not searched"', async () => {
    const calls = (await session()).filter((entry): entry is ToolCallEntry => entry.type === 'tool-call');
    expect(calls.map((call) => [call.name, call.searchRank])).toEqual([
      ['beta', 'not searched'],
      ['alpha', 2],
      ['files_read', 'not in results'],
      ['files_read', 1],
    ]);
  });

  it('the session summary reports the zero-hit rate and the mean rank of called tools', async () => {
    expect(summarizeSession(await session()).searchQuality).toEqual({
      queries: 3,
      zeroHitRate: 1 / 3,
      weakRate: 1 / 3,
      meanCalledRank: 1.5,
      calledFound: 2,
      calledNotInResults: 1,
      calledNotSearched: 1,
    });
  });

  it('a search event without per-query results still counts its hits (one query)', async () => {
    const dir = await tempDir();
    const telemetry = telemetryPlugin({ sessionLog: { dir }, tokenizer: false });
    const kernel = kernelWith(telemetry);
    const run = await kernel.createRun({ sessionId: 'old' });
    run.emit({ type: 'search', queries: ['x'], hits: [], origin: 'code' });
    await run.close();
    await kernel.close();
    const entries = await readSessionLog(telemetry.sessionLogFile('old')!);
    expect(entries.find((entry) => entry.type === 'search')).toMatchObject({
      results: [{ query: 'x', hitCount: 0, zeroHit: true }],
    });
    expect(summarizeSession(entries).searchQuality.zeroHitRate).toBe(1);
  });
});

describe('eval set from logs', () => {
  it('pairs each call with the latest search: the query that found the tool, or the only query of a miss', async () => {
    const { evalSetFromLog } = await import('@tool-search/telemetry');
    expect(evalSetFromLog(await session())).toEqual([
      { query: 'alpha things', relevant: ['plugin:fake:alpha'] },
      { query: 'files', relevant: ['mcp:files:files_read'] },
    ]);
  });
});
