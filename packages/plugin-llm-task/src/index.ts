// The public surface of @tool-search/plugin-llm-task: named exports only. As a plugin module a config loads by name,
// `plugin` is the factory and `optionsSchema` checks its options.
export { llmTaskPlugin, llmTaskPlugin as plugin, optionsSchema, wants, LLM_TASK_PLUGIN_NAME } from './plugin.js';
export type { LlmTaskHost, LlmTaskPluginOptions, LlmTaskProvider } from './plugin.js';
export { LlmTaskErrors } from './errors.js';
