// The public surface of @tool-search/mode-direct: named exports only.
export { directModeTextPlugin, renderList, DIRECT_MODE_HEADER } from './plugin.js';
export {
  DIRECT_MODE_TEXT_PLUGIN,
  DEFAULT_DIRECT_BUDGET_CHARS,
  MAX_DIRECT_BUDGET_CHARS,
  optionsSchema,
  parseDirectOptions,
} from './options.js';
export type { DirectModeTextOptions } from './options.js';
