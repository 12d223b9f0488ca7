// Evaluation helpers shared by the quality test, `tool-search eval` and `npm run bench`.
export { loadSnapshot, SNAPSHOT_FILES } from './datasets.js';
export type { EvalQuery, Snapshot, SnapshotName } from './datasets.js';
export { evaluate } from './metrics.js';
export type { Evaluation, Metrics, QueryOutcome, Retriever } from './metrics.js';
export { createPlainBm25 } from './bm25.js';
export { formatTable } from './report.js';
export { isHeldOut, splitDev } from './split.js';
export type { DevSplit } from './split.js';
