// The public surface of @tool-search/plugin-embeddings: named exports only.
export { embeddingsPlugin, hybridRerank } from './plugin.js';
export { createDenseIndex, embeddingText, reciprocalRankFusion } from './dense.js';
export type { DenseIndex } from './dense.js';
export { createEmbedder } from './embedder.js';
export { compareRankings } from './evaluate.js';
export type { CompareOptions, RankingComparison } from './evaluate.js';
export type { Embedder } from './embedder.js';
export { embeddingsOptionsSchema, parseEmbeddingsOptions, PLUGIN_NAME as EMBEDDINGS_PLUGIN } from './options.js';
export type { EmbeddingsOptions } from './options.js';
export { EmbeddingsErrors } from './errors.js';
