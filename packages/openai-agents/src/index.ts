// The public surface of @tool-search/openai-agents: named exports only.
export { createToolSearch, AGENTS_MODES } from './tool-search.js';
export type { AgentsMode, CreateToolSearchOptions, ToolSearchTools } from './tool-search.js';
export { OpenAIAgentsErrors } from './errors.js';
