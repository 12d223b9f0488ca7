// The public surface of @tool-search/search: named exports only.
export { createToolIndex, describeTool } from './tool-index.js';
export { indexForRun } from './index-for-run.js';
export type {
  BatchSearchResult,
  SearchHit,
  SearchOptions,
  SearchResult,
  ToolDescription,
  ToolIndex,
  ToolIndexOptions,
} from './types.js';
// Evaluation on the shared retrieval data, reused by `tool-search eval` and `npm run bench`.
export { createPlainBm25, evaluate, formatTable, isHeldOut, loadSnapshot, SNAPSHOT_FILES, splitDev } from './eval/index.js';
export type { DevSplit, EvalQuery, Evaluation, Metrics, QueryOutcome, Retriever, Snapshot, SnapshotName } from './eval/index.js';
