// The public surface of @tool-search/langchain: named exports only.
export { createToolSearch, LANGCHAIN_MODES } from './tool-search.js';
export type { CreateToolSearchOptions, LangChainMode, ToolSearchMiddleware } from './tool-search.js';
export { LangChainErrors } from './errors.js';
