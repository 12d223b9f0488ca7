// The public surface of @tool-search/control-tools: named exports only.
export { createControlTools, controlToolsFor, extendDescription, CONTROL_TOOL_NAMES, MAX_QUERIES } from './control-tools.js';
export type { ControlToolsConfig } from './control-tools.js';
export { okResult, errorResult, renderSearch, renderDescription } from './results.js';
