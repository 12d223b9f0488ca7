/**
 * `eval --embeddings FILE`: lexical, dense and fused rankings side by side on
 * the same queries and catalog. FILE holds the embeddings plugin's options
 * (`{ baseURL, model, … }`) or a tool-search config with
 * `tools.toolSearch.embeddings`. The catalog is embedded first (an embedder
 * that cannot answer is an error here, not a silent lexical fallback), then
 * each query is ranked three ways: the lexical index alone, the dense index
 * alone, and the fusion `tool_search` would use.
 */
import { readFileSync } from 'node:fs';
import { parseConfig } from '@tool-search/config';
import type { ToolDescriptor } from '@tool-search/kernel';
import { createDenseIndex, hybridRerank, parseEmbeddingsOptions, type EmbeddingsOptions } from '@tool-search/plugin-embeddings';
import { createToolIndex, evaluate, formatTable, LEXICAL_RANKER, type EvalQuery, type Metrics, type Retriever } from '@tool-search/search';
import { CliInputError } from '../io.js';

export interface SideBySide {
  readonly model: string;
  readonly lexical: Metrics;
  readonly dense: Metrics;
  readonly fused: Metrics;
}

/** Lexical candidates handed to fusion, as `searchRanked` hands them. */
const CANDIDATES = 50;

export function readEmbeddingsOptions(file: string): EmbeddingsOptions {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliInputError(`cannot read the embeddings config ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let bare: unknown;
  try {
    bare = JSON.parse(text);
  } catch {
    bare = undefined;
  }
  if (bare && typeof bare === 'object' && 'baseURL' in bare) return parseEmbeddingsOptions(bare);
  // Else a tool-search config (JSON5), checked as such: a bad one names its path.
  const toolSearch = parseConfig(text, file).tools?.toolSearch;
  const embeddings = typeof toolSearch === 'object' ? toolSearch.embeddings : undefined;
  if (!embeddings) throw new CliInputError(`${file} is neither embeddings options ({ baseURL, model, … }) nor a config with tools.toolSearch.embeddings`);
  return parseEmbeddingsOptions(embeddings);
}

/** `displayId` maps a descriptor id to the id form the queries use. */
export async function sideBySide(descriptors: readonly ToolDescriptor[], queries: readonly EvalQuery[], options: EmbeddingsOptions, displayId: (id: string) => string, indexOptions: object): Promise<SideBySide> {
  const lexicalIndex = createToolIndex(descriptors, indexOptions);
  const dense = createDenseIndex(options);
  try {
    await dense.prepare(descriptors);
  } catch (error) {
    throw new CliInputError(`the embeddings endpoint ${options.baseURL} (model ${options.model}) could not embed the catalog: ${error instanceof Error ? error.message : String(error)}`);
  }
  const fuse = hybridRerank({ ...options, fusion: 'rrf' }, dense);
  const failures: string[] = [];
  const ready = Promise.resolve();
  const denseRanked = new Map<string, string[]>();
  const fusedRanked = new Map<string, string[]>();
  for (const { query } of queries) {
    if (denseRanked.has(query)) continue;
    const lexical = lexicalIndex.search(query, { limit: CANDIDATES }).hits.map((hit) => hit.id);
    denseRanked.set(query, await dense.rank(query, descriptors, CANDIDATES));
    const fused = await fuse({ ids: lexical, ranker: LEXICAL_RANKER }, { query, tools: descriptors, diagnostic: (d) => failures.push(d.message) }, ready);
    fusedRanked.set(query, [...fused.ids]);
  }
  if (failures.length) throw new CliInputError(`the embeddings endpoint failed during the evaluation: ${failures[0]}`);
  const fromLists = (lists: Map<string, string[]>): Retriever => ({
    search: (query, searchOptions) => ({ hits: (lists.get(query) ?? []).slice(0, searchOptions?.limit ?? 10).map((id) => ({ id: displayId(id) })) }),
  });
  const lexical: Retriever = { search: (query, searchOptions) => ({ hits: lexicalIndex.search(query, { limit: searchOptions?.limit ?? 10 }).hits.map((hit) => ({ id: displayId(hit.id) })) }) };
  return {
    model: options.model,
    lexical: evaluate(lexical, queries, { k: 10 }).metrics,
    dense: evaluate(fromLists(denseRanked), queries, { k: 10 }).metrics,
    fused: evaluate(fromLists(fusedRanked), queries, { k: 10 }).metrics,
  };
}

export function renderSideBySide(result: SideBySide, queries: number, tools: number): string {
  const rows = [
    { label: 'lexical (bm25f)', metrics: result.lexical },
    { label: `dense (${result.model})`, metrics: result.dense },
    { label: 'fused (RRF)', metrics: result.fused },
  ];
  return `${queries} queries over ${tools} tools\n${formatTable(rows)}\n`;
}
