// The public surface of @tool-search/plugin-web: named exports only.
export { webPlugin, WEB_PLUGIN_NAME } from './plugin.js';
export type { WebPluginOptions } from './plugin.js';
export { checkWebConfig, FETCH_DEFAULTS, SEARCH_DEFAULTS } from './options.js';
export type { WebConfig, WebFetchConfig, WebSearchConfig } from './options.js';
export {
  braveProvider,
  perplexityProvider,
  resolveSearchProvider,
  searchKeys,
  SEARCH_PROVIDER_ORDER,
  BRAVE_BASE_URL,
  PERPLEXITY_BASE_URL,
  OPENROUTER_BASE_URL,
} from './search-providers.js';
export {
  geminiProvider,
  grokProvider,
  kimiProvider,
  GEMINI_BASE_URL,
  XAI_BASE_URL,
  MOONSHOT_BASE_URL,
  DEFAULT_GEMINI_MODEL,
  DEFAULT_GROK_MODEL,
  DEFAULT_KIMI_MODEL,
} from './search-answers.js';
export type { SearchProvider, SearchProviderId, SearchRequest } from './search-http.js';
export { isPublicAddress } from './address-guard.js';
export { WebErrors } from './errors.js';
