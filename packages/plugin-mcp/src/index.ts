// The public surface of @tool-search/plugin-mcp: named exports only.
export { mcpPlugin, MCP_PLUGIN_NAME } from './plugin.js';
export type { McpPlugin } from './plugin.js';
export {
  mcpPluginOptionsSchema,
  mcpServersSchema,
  mcpServerConfigSchema,
  mcpOAuthConfigSchema,
  mcpServerConfigSchemaWith,
  parseMcpOptions,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_FIRST_START_TIMEOUT_MS,
  DEFAULT_MAX_TOOLS_PER_SERVER,
  DEFAULT_MAX_LIST_PAGES,
  DEFAULT_SHUTDOWN_GRACE_MS,
  SERVER_NAME_PATTERN,
  isPackageRunner,
} from './options.js';
export type {
  McpPluginOptions,
  McpServerConfig,
  McpStdioServerConfig,
  McpHttpServerConfig,
  McpOAuthConfig,
  McpRoot,
} from './options.js';
export type { McpClientHandlers, McpRequestContext } from './handlers.js';
export type { McpServerStatus, McpServerState, McpFailureReason } from './connection.js';
export { toDefinition } from './to-definition.js';
export type { McpSkillMeta } from './skills.js';
export { ALWAYS_LOAD_META_KEY, catalogModeOf, isAppOnly } from './tool-visibility.js';
export { fileTokenStore, memoryTokenStore, tokenFile } from './token-store.js';
export { defaultStateDir } from './state-dir.js';
export type { McpAuthRecord, McpTokenStore } from './token-store.js';
export type { McpAuthorizationResponse, McpAuthorizer } from './oauth-session.js';
export type { McpCallTrace, McpTraceContext } from './trace-context.js';
export { loopbackAuthorizer, mcpLogin, mcpLogout } from './login.js';
export type { LoopbackAuthorizer, LoopbackAuthorizerOptions, McpLoginOptions } from './login.js';
export type { McpCallForwarding, DownstreamEvent } from './forwarding.js';
export { taggedLogger } from './forwarding.js';
export type { McpDownstream, McpPeer } from './downstream.js';
export { isResourceNotFound } from './downstream.js';
export { McpErrors } from './errors.js';
