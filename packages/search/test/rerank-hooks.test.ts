/**
 * The search package's rerank hooks (H7 registry per run): a plugin taps them
 * at run start, `searchRanked` runs the lexical candidates through them, a
 * tap can never surface a hidden tool, and a tap that throws leaves the
 * lexical ranking with a SEARCH_RERANK_FAILED diagnostic.
 */
import { describe, expect, it } from 'vitest';
import {
  createKernel,
  type KernelPlugin,
  type RunEvent,
  type ToolDefinition,
  type ToolDescriptor,
} from '@tool-search/kernel';
import { getSearchHooks, indexForRun, LEXICAL_RANKER, type Ranking } from '../src/index.js';
import { catalog } from './helpers/tools.js';
import { SearchErrors } from '../src/errors.js';

const definitions: ToolDefinition[] = catalog.map(({ id: _id, catalogMode: _mode, ...definition }) => definition);
const source: KernelPlugin = {
  name: 'catalog',
  apply: ({ hooks }) => hooks.listTools.tap((sink) => sink.add(definitions)),
};
const hideSlack: KernelPlugin = {
  name: 'hide-slack',
  apply: ({ hooks }) =>
    hooks.filterPolicy.tap((tools: readonly ToolDescriptor[]) => tools.filter((tool) => tool.owner !== 'slack')),
};
const reranker = (fn: (ranking: Ranking) => Ranking | Promise<Ranking>): KernelPlugin => ({
  name: 'test-reranker',
  apply: ({ hooks }) =>
    hooks.runStart.tap((run) => getSearchHooks(run).rerank.tapPromise('test-reranker', async (ranking) => fn(ranking))),
});

async function runWith(...plugins: KernelPlugin[]) {
  const events: RunEvent[] = [];
  const observer: KernelPlugin = {
    name: 'observer',
    apply: ({ hooks }) => hooks.runEvent.tap((event) => void events.push(event)),
  };
  const run = await createKernel({ plugins: [source, hideSlack, observer, ...plugins] }).createRun();
  return { run, events, index: indexForRun(run) };
}

describe('search rerank hooks', () => {
  it('without taps, searchRanked is search with the lexical ranker', async () => {
    const { index } = await runWith();
    const ranked = await index.searchRanked('read a file');
    expect(ranked.ranker).toBe(LEXICAL_RANKER);
    expect(ranked.result).toEqual(index.search('read a file'));
  });

  it('a fused search sends each phrasing through the taps, then fuses; hidden tools stay out', async () => {
    const ranker = { id: 'test', version: '1' };
    const { index } = await runWith(
      reranker((ranking) => ({ ids: ['mcp:slack:send_message', ...[...ranking.ids].reverse()], ranker })),
    );
    const plain = await index.searchRanked(['read a file', 'open the contents of a file'], { fuse: true, limit: 20 });
    expect(plain.ranker).toEqual(ranker);
    expect(plain.result.hits.map((hit) => hit.owner)).not.toContain('slack');
    const lexical = index
      .search(['read a file', 'open the contents of a file'], { fuse: true, limit: 20 })
      .hits.map((hit) => hit.id);
    expect(plain.result.hits.map((hit) => hit.id)).not.toEqual(lexical);
    expect([...plain.result.hits.map((hit) => hit.id)].sort()).toEqual([...lexical].sort());
  });

  it('a tap reorders the candidates and adds tools, never a hidden or unknown one', async () => {
    const ranker = { id: 'test', version: '1' };
    const { index } = await runWith(
      reranker((ranking) => ({
        ids: ['mcp:slack:send_message', 'nope', 'mcp:github:create_issue', ...[...ranking.ids].reverse()],
        ranker,
      })),
    );
    const ranked = await index.searchRanked('show the contents of a file', { limit: 3 });
    expect(ranked.ranker).toEqual(ranker);
    const lexical = index.search('show the contents of a file', { limit: 20 }).hits.map((hit) => hit.id);
    expect(ranked.result.hits.map((hit) => hit.id)).toEqual(
      ['mcp:github:create_issue', ...[...lexical].reverse()].filter((id, i, all) => all.indexOf(id) === i).slice(0, 3),
    );
  });

  it('a tool the query names stays first whatever a tap returns', async () => {
    const { index } = await runWith(
      reranker((ranking) => ({ ids: [...ranking.ids].reverse(), ranker: { id: 'test', version: '1' } })),
    );
    const named = index.search('read_file', { limit: 1 }).hits[0]!.id;
    expect((await index.searchRanked('read_file', { limit: 3 })).result.hits[0]!.id).toBe(named);
    expect((await index.searchRanked(['read_file', 'open a file'], { limit: 3, fuse: true })).result.hits[0]!.id).toBe(
      named,
    );
  });

  it('a throwing tap keeps the lexical ranking and reports SEARCH_RERANK_FAILED', async () => {
    const { index, events } = await runWith(
      reranker(() => {
        throw new Error('embedder exploded');
      }),
    );
    const ranked = await index.searchRanked(['read a file', 'post to slack']);
    expect(ranked.ranker).toBe(LEXICAL_RANKER);
    expect(ranked.result).toEqual(index.search(['read a file', 'post to slack']));
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'diagnostic',
        diagnostic: expect.objectContaining({ code: SearchErrors.SEARCH_RERANK_FAILED }),
      }),
    );
  });

  it('getSearchHooks refuses what is not a RunInfo', () => {
    expect(() => getSearchHooks({} as never)).toThrow(TypeError);
  });
});
