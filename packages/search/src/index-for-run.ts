/**
 * One index per run catalog: several modes in one run share it. Keyed by the
 * catalog array (a WeakMap), so the index goes away with the run. Modes that
 * ask with different limits get their own view over the same core, so the
 * catalog is tokenized and ranked by one index, once.
 */
import type { RunApi, ToolDescriptor } from '@tool-search/kernel';
import { createIndexCore, indexView, type IndexCore } from './tool-index.js';
import type { ToolIndex, ToolIndexOptions } from './types.js';

interface RunIndexes {
  readonly core: IndexCore;
  readonly views: Map<string, ToolIndex>;
}

const cache = new WeakMap<readonly ToolDescriptor[], RunIndexes>();

export function indexForRun(run: Pick<RunApi, 'catalog'>, options: ToolIndexOptions = {}): ToolIndex {
  let entry = cache.get(run.catalog);
  if (!entry) {
    entry = { core: createIndexCore(run.catalog.filter((tool) => tool.catalogMode === 'catalog')), views: new Map() };
    cache.set(run.catalog, entry);
  }
  const key = JSON.stringify([options.searchDefaultLimit, options.maxSearchLimit, options.maxQueryLength, options.maxResponseBytes, options.maxBatchQueries]);
  let index = entry.views.get(key);
  if (!index) {
    index = indexView(entry.core, options);
    entry.views.set(key, index);
  }
  return index;
}
