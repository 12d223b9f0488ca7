// The public surface of @tool-search/plugin-mcp: named exports only.
export { mcpPlugin, MCP_PLUGIN_NAME } from './plugin.js';
export type { McpPlugin } from './plugin.js';
export {
  mcpPluginOptionsSchema,
  mcpServersSchema,
  mcpServerConfigSchema,
  parseMcpOptions,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  SERVER_NAME_PATTERN,
} from './options.js';
export type { McpPluginOptions, McpServerConfig, McpStdioServerConfig, McpHttpServerConfig } from './options.js';
export type { McpServerStatus, McpServerState, McpFailureReason } from './connection.js';
export { toDefinition } from './to-definition.js';
export type { McpCallForwarding, DownstreamEvent } from './forwarding.js';
export { taggedLogger } from './forwarding.js';
export type { McpDownstream, McpPeer } from './downstream.js';
