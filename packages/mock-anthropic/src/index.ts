// The public surface of @tool-search/mock-anthropic: named exports only.
export { startMockAnthropic } from './server.js';
export type { MockAnthropic, MockAnthropicOptions } from './server.js';
export { toChatRequest } from './convert.js';
export { MOCK_ANTHROPIC_MODEL } from './response.js';
export { blocksOf, cacheBreakpoints, createAnthropicPromptCache, MAX_CACHE_BREAKPOINTS } from './prompt-cache.js';
export type { AnthropicPromptCache, AnthropicPromptCacheOptions, CacheUsage } from './prompt-cache.js';
export type { AnthropicMessage, AnthropicTool, ContentBlock, MessagesRequest } from './types.js';
