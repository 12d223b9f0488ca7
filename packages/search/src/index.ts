// The public surface of @tool-search/search: named exports only.
export { createToolIndex, describeTool } from './tool-index.js';
export { indexBuildCount, indexForRun, isIndexBuilt, prepareIndex, type IndexedRun } from './index-for-run.js';
export { getSearchHooks, createSearchHooks } from './hooks.js';
export type { Ranking, RerankContext, SearchHooks } from './hooks.js';
export { LEXICAL_RANKER } from './tool-index.js';
export { queryTerms } from './query-terms.js';
export { missReasons, unavailableSources } from './miss-reasons.js';
export { sanitizeUntrustedText, stripUntrustedTokens } from './untrusted-text.js';
export type {
  BatchSearchResult,
  RankedSearch,
  RankerInfo,
  SearchHit,
  SearchOptions,
  SearchResult,
  ToolDescription,
  ToolIndex,
  ToolIndexOptions,
  UnavailableSource,
} from './types.js';
// Evaluation on the shared retrieval data, reused by `tool-search eval` and `npm run bench`.
export {
  createPlainBm25,
  evaluate,
  formatTable,
  isHeldOut,
  loadSnapshot,
  SNAPSHOT_FILES,
  splitDev,
} from './eval/index.js';
export type {
  DevSplit,
  EvalQuery,
  Evaluation,
  Metrics,
  QueryOutcome,
  Retriever,
  Snapshot,
  SnapshotName,
} from './eval/index.js';
export { SearchErrors } from './errors.js';
export type { SearchEventResult } from './events.js';
