// The public surface of @tool-search/mode-directory: named exports only.
export { directoryModePlugin, DIRECTORY_MODE_SYSTEM } from './plugin.js';
export {
  DIRECTORY_MODE_PLUGIN,
  DEFAULT_BUDGET_CHARS,
  DEFAULT_TURN_TOOLS,
  MAX_TURN_TOOLS,
  optionsSchema,
} from './options.js';
import './types.js';
export type { DirectoryModeOptions } from './options.js';
export { renderDirectory, DIRECTORY_HEADER, DIRECTORY_ID_NOTE, DESCRIPTION_STEPS } from './directory.js';
export type { DirectoryEntry, DirectoryLevel, RenderedDirectory } from './directory.js';
export { sanitizeUntrustedText } from '@tool-search/search';
export { CONTROL_TOOL_NAMES, MAX_QUERIES } from '@tool-search/control-tools';
