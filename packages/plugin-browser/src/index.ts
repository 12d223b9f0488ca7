// The public surface of @tool-search/plugin-browser: named exports only.
export { browserPlugin, BROWSER_PLUGIN_NAME, BROWSER_TOOL_ID } from './plugin.js';
export type { BrowserPluginOptions } from './plugin.js';
export { BrowserErrors } from './errors.js';
export { checkBrowserConfig, BROWSER_DEFAULTS, CDP_PORT_RANGE, PROFILE_NAME } from './options.js';
export type { BrowserConfig, BrowserProfileConfig } from './options.js';
export { BROWSER_ACTIONS } from './schema.js';
export type { BrowserAction } from './schema.js';
export { BROWSER_FLAGS } from './instance.js';
