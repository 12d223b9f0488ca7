/**
 * The exposure modes, named once: the config's `tools.toolSearch.mode` values, the CLI's `--mode` choices, the modes
 * the page and the QA suite compare, and the ones `alwaysVisible` pins apply to all read these lists. The preset
 * composes one mode plugin per search mode (its tests check every name here materializes).
 */

/** The search modes: the catalog is reached through a search tool (ordered as reports compare them). */
export const SEARCH_MODES = Object.freeze(['code', 'tools', 'directory'] as const);
/** The provider's own deferred tool loading (Anthropic); the gateway falls back to `tools` without it. */
export const NATIVE_MODE = 'native';
/** Every tool in the request with its full schema: the baseline the others are measured against. */
export const DIRECT_MODE = 'direct';

/** `tools.toolSearch.mode` values (every mode but direct). */
export const TOOL_SEARCH_MODES = Object.freeze([...SEARCH_MODES, NATIVE_MODE] as const);
/** Direct and the search modes: what the CLI's `--mode`, the inspect page and the QA suite compare. */
export const COMPARED_MODES = Object.freeze([DIRECT_MODE, ...SEARCH_MODES] as const);
/** Every exposure mode. */
export const EXPOSURE_MODES = Object.freeze([DIRECT_MODE, ...TOOL_SEARCH_MODES] as const);

export type SearchMode = (typeof SEARCH_MODES)[number];
export type ToolSearchMode = (typeof TOOL_SEARCH_MODES)[number];
export type ExposureMode = (typeof EXPOSURE_MODES)[number];
