// The public surface of @tool-search/ai-sdk: named exports only.
export { createToolSearch, AI_SDK_MODES } from './tool-search.js';
export type { AiSdkMode, CreateToolSearchOptions, ToolSearchToolSet } from './tool-search.js';
export { AiSdkErrors } from './errors.js';
