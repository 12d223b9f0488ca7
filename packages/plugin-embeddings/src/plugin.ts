/**
 * `embeddingsPlugin(options)`: hybrid tool search. At run start it embeds the
 * run's searchable catalog (only tools whose vector is not cached yet, in
 * batches) and taps the run's search `rerank` hook: a query's lexical
 * candidates are fused with the dense ranking over every tool the run may see
 * (reciprocal rank fusion). A slow or failing embedder never fails a search:
 * the lexical ranking stands and an `EMBEDDINGS_UNAVAILABLE` diagnostic says why.
 */
import { type KernelPlugin, errorMessage } from '@tool-search/kernel';
import { getSearchHooks, type Ranking, type RerankContext } from '@tool-search/search';
import { createDenseIndex, reciprocalRankFusion, type DenseIndex } from './dense.js';
import { DEFAULTS, parseEmbeddingsOptions, PLUGIN_NAME, type EmbeddingsOptions } from './options.js';
import { EmbeddingsErrors } from './errors.js';

/** Dense candidates fused with the lexical ones. */
const DENSE_CANDIDATES = 50;
/** How long searches skip an embedder that just failed. */
const RETRY_AFTER_MS = 30_000;

export function embeddingsPlugin(options: EmbeddingsOptions, dense?: DenseIndex): KernelPlugin {
  const parsed = parseEmbeddingsOptions(options);
  const index = dense ?? createDenseIndex(parsed);
  const rerank = hybridRerank(parsed, index);
  return {
    name: PLUGIN_NAME,
    apply({ hooks, logger }) {
      hooks.runStart.tap((run, catalog) => {
        const searchable = catalog.filter((tool) => tool.catalogMode === 'catalog');
        const ready = index.prepare(searchable);
        // Observed here so an embedder that is down at run start is not an unhandled rejection; searches report it.
        ready.catch((error: unknown) =>
          logger.warn('embedding the catalog failed; searches rank lexically', { error: errorMessage(error) }),
        );
        getSearchHooks(run).rerank.tapPromise(PLUGIN_NAME, (ranking, ctx) => rerank(ranking, ctx, ready));
      });
    },
  };
}

/** The rerank tap: fused ranking, or the lexical one with a diagnostic. Exported for `tool-search eval`. */
export function hybridRerank(options: EmbeddingsOptions, index: DenseIndex) {
  const wait = options.indexWaitMs ?? DEFAULTS.indexWaitMs;
  const fusion = options.fusion ?? DEFAULTS.fusion;
  // After a failed query embedding, searches skip the embedder for a while instead of each waiting for its timeout.
  let downUntil = 0;
  let lastError = '';
  return async (
    ranking: Ranking,
    ctx: Pick<RerankContext, 'query' | 'tools' | 'diagnostic'>,
    ready: Promise<void>,
  ): Promise<Ranking> => {
    if (Date.now() < downUntil) {
      ctx.diagnostic({
        code: EmbeddingsErrors.EMBEDDINGS_UNAVAILABLE,
        level: 'warning',
        plugin: PLUGIN_NAME,
        message: `embeddings skipped after a recent failure (${lastError}), lexical ranking used`,
      });
      return ranking;
    }
    try {
      await withTimeout(ready, wait, `the catalog's vectors were not ready within ${wait} ms`);
      const denseIds = await index.rank(ctx.query, ctx.tools, DENSE_CANDIDATES);
      const ids =
        fusion === 'dense'
          ? denseIds
          : reciprocalRankFusion(
              [ranking.ids, denseIds],
              [1, options.denseWeight ?? DEFAULTS.denseWeight],
              options.rrfK ?? DEFAULTS.rrfK,
            );
      return {
        ids,
        ranker: { id: `${ranking.ranker.id}+dense-${fusion}`, version: `${ranking.ranker.version}+${index.model}` },
      };
    } catch (error) {
      lastError = errorMessage(error);
      downUntil = Date.now() + RETRY_AFTER_MS;
      ctx.diagnostic({
        code: EmbeddingsErrors.EMBEDDINGS_UNAVAILABLE,
        level: 'warning',
        plugin: PLUGIN_NAME,
        message: `embeddings unavailable, lexical ranking used: ${errorMessage(error)}`,
      });
      return ranking;
    }
  };
}

function withTimeout(promise: Promise<void>, ms: number, reason: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(reason)), ms);
    timer.unref();
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
