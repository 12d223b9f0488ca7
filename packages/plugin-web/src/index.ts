// The public surface of @tool-search/plugin-web: named exports only.
export { webPlugin, WEB_PLUGIN_NAME } from './plugin.js';
export type { WebPluginOptions } from './plugin.js';
export { checkWebConfig, FETCH_DEFAULTS, SEARCH_DEFAULTS } from './options.js';
export type { WebConfig, WebFetchConfig, WebSearchConfig } from './options.js';
export { braveProvider, perplexityProvider, resolveSearchProvider, BRAVE_BASE_URL, PERPLEXITY_BASE_URL, OPENROUTER_BASE_URL } from './search-providers.js';
export type { SearchProvider, SearchRequest } from './search-providers.js';
export { isPublicAddress } from './address-guard.js';
export { WebErrors } from './errors.js';
