// The public surface of @tool-search/plugin-client-tools: named exports only.
export { clientToolsPlugin, CLIENT_TOOLS_PLUGIN_NAME } from './plugin.js';
export type { ClientToolsPluginOptions, ClientToolsExecutor } from './plugin.js';
export { normalizeClientTools, normalizeClientTool, EMPTY_PARAMETERS } from './normalize.js';
export type { ClientTool, ClientToolInput, OpenAIFunctionToolInput, PlainClientToolInput } from './normalize.js';
export { ClientToolsErrors } from './errors.js';
