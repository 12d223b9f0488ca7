// The public surface of @tool-search/provider-formats: named exports only, no wildcards.
export { providerExposure } from './provider-exposure.js';
export type { ProviderExposure } from './provider-exposure.js';
export { toAnthropicTool, toOpenAITool } from './shapes.js';
export type { AnthropicTool, OpenAIFunctionTool } from './shapes.js';
export { createProviderNameMap, PROVIDER_NAME_PATTERN } from './provider-names.js';
export type { ProviderNameMap } from './provider-names.js';
export { providerCandidates } from './provider-keys.js';
export { jsonToolResult, toolResultText } from './result-text.js';
