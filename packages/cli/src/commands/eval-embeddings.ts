/**
 * `eval --embeddings FILE`: lexical, dense and fused rankings side by side on
 * the same queries and catalog. FILE holds the embeddings plugin's options
 * (`{ baseURL, model, … }`) or a tool-search config with
 * `tools.toolSearch.embeddings`; `compareRankings` (plugin-embeddings) ranks
 * each query three ways: lexical alone, dense alone, and the fusion
 * `tool_search` would use.
 */
import { readFileSync } from 'node:fs';
import { parseConfig } from '@tool-search/config';
import type { ToolDescriptor } from '@tool-search/kernel';
import {
  compareRankings,
  parseEmbeddingsOptions,
  type EmbeddingsOptions,
  type RankingComparison,
} from '@tool-search/preset';
import { formatTable, type EvalQuery, type ToolIndexOptions } from '@tool-search/search';
import { CliInputError } from '../io.js';
import { errorMessage } from '@tool-search/kernel';

export function readEmbeddingsOptions(file: string): EmbeddingsOptions {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliInputError(`cannot read the embeddings config ${file}: ${errorMessage(error)}`, { cause: error });
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
  if (!embeddings)
    throw new CliInputError(
      `${file} is neither embeddings options ({ baseURL, model, … }) nor a config with tools.toolSearch.embeddings`,
    );
  return parseEmbeddingsOptions(embeddings);
}

/** `displayId` maps a descriptor id to the id form the queries use. */
export async function sideBySide(
  descriptors: readonly ToolDescriptor[],
  queries: readonly EvalQuery[],
  options: EmbeddingsOptions,
  displayId: (id: string) => string,
  indexOptions: ToolIndexOptions,
): Promise<RankingComparison> {
  const { subsets: _subsets, ...result } = await compareRankings(descriptors, queries, options, {
    displayId,
    indexOptions,
  });
  return result;
}

export function renderSideBySide(result: RankingComparison, queries: number, tools: number): string {
  const rows = [
    { label: 'lexical (bm25f)', metrics: result.lexical },
    { label: `dense (${result.model})`, metrics: result.dense },
    { label: 'fused (RRF)', metrics: result.fused },
  ];
  return `${queries} queries over ${tools} tools\n${formatTable(rows)}\n`;
}
