// The public surface of @tool-search/plugin-diffs: named exports only. As a plugin module a config loads by name,
// `plugin` is the factory and `optionsSchema` checks its options.
export { diffsPlugin, diffsPlugin as plugin, optionsSchema, DIFFS_PLUGIN_NAME } from './plugin.js';
export type { DiffsPlugin, DiffsPluginOptions } from './plugin.js';
export { createDiffsViewer, normalizeBaseUrl, VIEWER_CSP } from './viewer.js';
export type { DiffsViewer, DiffsViewerOptions, GatewayPages, PublishedDiff } from './viewer.js';
export { DiffsErrors } from './errors.js';
export { diffHtml, PAGE_CSS, toPatches } from './render.js';
export type { DiffInput, DiffStats } from './render.js';
