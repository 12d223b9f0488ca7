/**
 * Lexical, dense and fused rankings side by side on labeled queries (what
 * `tool-search eval --embeddings` and `npm run bench` print). The catalog is
 * embedded first: an embedder that cannot answer is an error here
 * (`EMBEDDINGS_UNAVAILABLE`), not a silent lexical fallback. Fusion is the
 * one `tool_search` uses: the lexical index's top 50 and the dense top 50,
 * reciprocal rank fusion.
 */
import { ToolSearchError, type ToolDescriptor, errorMessage } from '@tool-search/kernel';
import {
  createToolIndex,
  evaluate,
  LEXICAL_RANKER,
  type EvalQuery,
  type Metrics,
  type Retriever,
  type ToolIndexOptions,
} from '@tool-search/search';
import { createDenseIndex, type DenseIndex } from './dense.js';
import type { EmbeddingsOptions } from './options.js';
import { hybridRerank } from './plugin.js';
import { EmbeddingsErrors } from './errors.js';

export interface RankingComparison {
  readonly model: string;
  readonly lexical: Metrics;
  readonly dense: Metrics;
  readonly fused: Metrics;
}

export interface CompareOptions {
  /** Maps a descriptor id to the id form the queries use (default: as is). */
  readonly displayId?: (id: string) => string;
  readonly indexOptions?: ToolIndexOptions;
  /** Query sets scored on the same rankings (e.g. a held-out part); each gets its own comparison. */
  readonly subsets?: Readonly<Record<string, readonly EvalQuery[]>>;
}

const CANDIDATES = 50;

export async function compareRankings(
  descriptors: readonly ToolDescriptor[],
  queries: readonly EvalQuery[],
  options: EmbeddingsOptions,
  compare: CompareOptions = {},
  dense: DenseIndex = createDenseIndex(options),
): Promise<RankingComparison & { readonly subsets: Readonly<Record<string, RankingComparison>> }> {
  const shown = compare.displayId ?? ((id: string) => id);
  const lexicalIndex = createToolIndex(
    descriptors,
    compare.indexOptions ?? { maxResponseBytes: 1 << 20, maxSearchLimit: 100 },
  );
  try {
    await dense.prepare(descriptors);
  } catch (error) {
    throw new ToolSearchError(
      EmbeddingsErrors.EMBEDDINGS_UNAVAILABLE,
      `the embeddings endpoint ${options.baseURL} (model ${options.model}) could not embed the catalog: ${errorMessage(error)}`,
      { cause: error },
    );
  }
  const fuse = hybridRerank({ ...options, fusion: 'rrf' }, dense);
  const failures: string[] = [];
  const denseLists = new Map<string, string[]>();
  const fusedLists = new Map<string, string[]>();
  const all = [...queries, ...Object.values(compare.subsets ?? {}).flat()];
  for (const { query } of all) {
    if (denseLists.has(query)) continue;
    const lexical = lexicalIndex.search(query, { limit: CANDIDATES }).hits.map((hit) => hit.id);
    denseLists.set(query, await dense.rank(query, descriptors, CANDIDATES));
    const fused = await fuse(
      { ids: lexical, ranker: LEXICAL_RANKER },
      { query, tools: descriptors, diagnostic: (d) => failures.push(d.message) },
      Promise.resolve(),
    );
    fusedLists.set(query, [...fused.ids]);
  }
  if (failures.length)
    throw new ToolSearchError(
      EmbeddingsErrors.EMBEDDINGS_UNAVAILABLE,
      `the embeddings endpoint failed during the evaluation: ${failures[0]}`,
    );
  const fromLists = (lists: Map<string, string[]>): Retriever => ({
    search: (query, o) => ({
      hits: (lists.get(query) ?? []).slice(0, o?.limit ?? 10).map((id) => ({ id: shown(id) })),
    }),
  });
  const lexical: Retriever = {
    search: (query, o) => ({
      hits: lexicalIndex.search(query, { limit: o?.limit ?? 10 }).hits.map((hit) => ({ id: shown(hit.id) })),
    }),
  };
  const score = (set: readonly EvalQuery[]): RankingComparison => ({
    model: options.model,
    lexical: evaluate(lexical, set, { k: 10 }).metrics,
    dense: evaluate(fromLists(denseLists), set, { k: 10 }).metrics,
    fused: evaluate(fromLists(fusedLists), set, { k: 10 }).metrics,
  });
  return {
    ...score(queries),
    subsets: Object.fromEntries(Object.entries(compare.subsets ?? {}).map(([name, set]) => [name, score(set)])),
  };
}
