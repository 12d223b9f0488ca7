/**
 * The dense side of hybrid search: a vector per tool (embedded in batches,
 * cached by model and content), a vector per query, cosine over the tools a
 * run may see, and reciprocal rank fusion with the lexical ranking.
 */
import type { ToolDescriptor } from '@tool-search/kernel';
import { contentKey, createVectorCache, type VectorCache } from './cache.js';
import { createEmbedder, type Embedder } from './embedder.js';
import { DEFAULTS, type EmbeddingsOptions } from './options.js';

export interface DenseIndex {
  readonly model: string;
  /** Embeds the tools not cached yet, `batchSize` at a time. Resolves when every tool has a vector. */
  prepare(tools: readonly ToolDescriptor[]): Promise<void>;
  /** Tool ids by cosine to the query, best first, at most `k` (tools without a vector are left out). */
  rank(query: string, tools: readonly ToolDescriptor[], k: number): Promise<string[]>;
}

/** What of a tool is embedded: name, title, description and parameter names, bounded. */
export function embeddingText(tool: ToolDescriptor): string {
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  const params = properties && typeof properties === 'object' ? Object.keys(properties).slice(0, 20).join(', ') : '';
  const name = tool.name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ');
  return `${name}${tool.title ? ` (${tool.title})` : ''}: ${tool.description.slice(0, 1000)}${params ? `\nParameters: ${params}` : ''}`;
}

const QUERY_CACHE = 1000;

export function createDenseIndex(options: EmbeddingsOptions, embedder: Embedder = createEmbedder(options)): DenseIndex {
  const cache: VectorCache = createVectorCache(`${options.model}|${options.dimensions ?? ''}`, options.cacheDir);
  const keys = new WeakMap<ToolDescriptor, string>();
  const queries = new Map<string, Float32Array>();
  const batchSize = options.batchSize ?? DEFAULTS.batchSize;
  const keyOf = (tool: ToolDescriptor): string => {
    let key = keys.get(tool);
    if (key === undefined) keys.set(tool, (key = contentKey(options.model, options.dimensions, embeddingText(tool))));
    return key;
  };
  const pending = new Map<string, Promise<void>>();

  async function embedBatch(batch: readonly ToolDescriptor[]): Promise<void> {
    const vectors = await embedder.embed(batch.map(embeddingText));
    cache.putAll(batch.map((tool, i) => [keyOf(tool), vectors[i]!] as const));
  }

  return {
    model: options.model,
    async prepare(tools) {
      const missing = new Map<string, ToolDescriptor>();
      const waits: Promise<void>[] = [];
      for (const tool of tools) {
        const key = keyOf(tool);
        if (cache.get(key)) continue;
        const inFlight = pending.get(key);
        if (inFlight) waits.push(inFlight);
        else missing.set(key, tool);
      }
      const list = [...missing.values()];
      for (let at = 0; at < list.length; at += batchSize) {
        const batch = list.slice(at, at + batchSize);
        const job = embedBatch(batch).finally(() => {
          for (const tool of batch) pending.delete(keyOf(tool));
        });
        for (const tool of batch) pending.set(keyOf(tool), job);
        // Batches go one after another: a local embedder is usually busy with one at a time.
        await job;
      }
      await Promise.all(waits);
    },
    async rank(query, tools, k) {
      let vector = queries.get(query);
      if (!vector) {
        [vector] = await embedder.embed([query]);
        if (queries.size >= QUERY_CACHE) queries.clear();
        queries.set(query, vector!);
      }
      const scored: { id: string; score: number }[] = [];
      for (const tool of tools) {
        const other = cache.get(keyOf(tool));
        if (!other || other.length !== vector!.length) continue;
        let dot = 0;
        for (let i = 0; i < other.length; i++) dot += other[i]! * vector![i]!;
        scored.push({ id: tool.id, score: dot });
      }
      scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return scored.slice(0, k).map((entry) => entry.id);
    },
  };
}

/** Reciprocal rank fusion: score(id) = Σ weight_i / (k + rank_i), ties by the first list's order, then id. */
export function reciprocalRankFusion(
  lists: readonly (readonly string[])[],
  weights: readonly number[],
  k: number = DEFAULTS.rrfK,
): string[] {
  const scores = new Map<string, number>();
  lists.forEach((list, l) =>
    list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + (weights[l] ?? 1) / (k + rank + 1))),
  );
  const first = new Map(lists[0]?.map((id, rank) => [id, rank]) ?? []);
  return [...scores.entries()]
    .sort(
      (a, b) => b[1] - a[1] || (first.get(a[0]) ?? Infinity) - (first.get(b[0]) ?? Infinity) || (a[0] < b[0] ? -1 : 1),
    )
    .map(([id]) => id);
}
