// The public surface of @tool-search/mode-tools: named exports only.
export { toolsModePlugin, TOOLS_MODE_SYSTEM } from './plugin.js';
export { TOOLS_MODE_PLUGIN, optionsSchema } from './options.js';
export type { ToolsModeOptions } from './options.js';
export { CONTROL_TOOL_NAMES, MAX_QUERIES } from '@tool-search/control-tools';
