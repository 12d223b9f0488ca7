// The public surface of @tool-search/plugin-learning: named exports only.
export { learningPlugin, type LearningPlugin } from './plugin.js';
export {
  DEFAULTS as LEARNING_DEFAULTS,
  learningSettingsSchema,
  parseLearningOptions,
  PLUGIN_NAME as LEARNING_PLUGIN,
} from './options.js';
export type { LearningOptions, LearningScope, LearningSettings } from './options.js';
export { LearningErrors } from './errors.js';
export { buildModel, DEFAULT_RANK_K, learnedOrder } from './model.js';
export type { FusionSettings, LearnedModel, LearningEvent, ModelSettings } from './model.js';
export { SearchCallPairer, type PairedCall, type SearchedQuery } from './pairing.js';
export { LEARNED_RANKER_SUFFIX, scopeKey } from './store.js';
