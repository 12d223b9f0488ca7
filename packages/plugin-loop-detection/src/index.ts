// The public surface of @tool-search/plugin-loop-detection: named exports only.
export { loopDetectionPlugin, PLUGIN_NAME } from './plugin.js';
export type { LoopDetectionOptions, LoopDetectionPlugin, LoopWarning } from './plugin.js';
export {
  DEFAULT_LOOP_DETECTION,
  loopDetectionConfigSchema,
  loopDetectionSettingsSchema,
  resolveLoopDetection,
  checkLoopDetectionSettings,
} from './config.js';
export type {
  LoopDetectionConfig,
  LoopDetectionConfigInput,
  LoopDetectors,
  LoopDetectionAgent,
  LoopDetectionSettings,
} from './config.js';
export type { LoopDetector, LoopLevel } from './detect.js';
export { isPollLike, POLL_WORDS } from './poll.js';
export type { PollLikeFn } from './poll.js';
export { hashArgs, hashOutcome, isVolatileKey } from './hash.js';
