/**
 * The evaluation helpers of @tool-search/search (src/eval). They are not yet
 * exported from the package root, so they are imported from its build output;
 * once the package exports them this file becomes a one-line re-export.
 */
export { createPlainBm25, evaluate, formatTable, loadSnapshot } from '../../packages/search/dist/eval/index.js';
export type { EvalQuery, Evaluation, Metrics, Retriever, Snapshot, SnapshotName } from '../../packages/search/dist/eval/index.js';
