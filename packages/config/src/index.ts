// The public surface of @tool-search/config: named exports only.
export { configSchema, OPENCLAW_TOOLS_KEYS, OPENCLAW_AGENT_TOOLS_KEYS, OPENCLAW_AGENT_KEYS } from './schema.js';
export { COMPARED_MODES, DIRECT_MODE, EXPOSURE_MODES, NATIVE_MODE, SEARCH_MODES, TOOL_SEARCH_MODES } from './modes.js';
export type { ExposureMode, SearchMode } from './modes.js';
export { loadConfig, parseConfig, resolvePaths, CONFIG_FILE_NAME } from './load.js';
export type { LoadConfigOptions, LoadedConfig } from './load.js';
export {
  actedWorkspaces,
  checkWorkspaces,
  configGuardedPaths,
  cronDirBesideSessions,
  DEFAULT_WORKSPACE_FOLDER,
  defaultWorkspace,
  workspaceContains,
} from './workspace.js';
export type { ActedWorkspace, GuardedPath } from './workspace.js';
export { validateConfig, configIssues } from './validate.js';
export { getConfigValue, parseConfigPath, parseConfigValue, setConfigValue, setConfigValueInText } from './edit.js';
export type { ConfigPathSegment } from './edit.js';
export { REDACTED_SECRET, redactSecrets, redactUrl, secretPaths, withSecretFields } from './secrets.js';
export { mcpServersOf, mcpPinsOf, loadMcpServersFile, withMcpServers } from './mcp-servers.js';
export { mcpServersSchema } from './mcp-servers-schema.js';
export type { McpServersEntry } from './mcp-servers-schema.js';
export { resolveConfig, resolveToolSearch, TOOL_SEARCH_DEFAULTS, TOOL_SEARCH_LIMITS } from './resolve.js';
export { resolveToolSearchFor } from './tool-search-for.js';
export type { ResolvedToolSearchFor, ToolSearchParty } from './tool-search-for.js';
export { defaultAgentOf, MAIN_SESSION_ID, resolveSandboxFor, SANDBOX_MODES, sandboxConfigured } from './sandbox-for.js';
export type { ResolvedSandboxFor, SandboxParty } from './sandbox-for.js';
export type {
  AgentEntry,
  AgentSandboxConfig,
  AgentsConfig,
  AgentToolsConfig,
  ApprovalsConfig,
  ConfigIssue,
  CorePluginOptions,
  CoreToolsConfig,
  ElevatedConfig,
  ExecToolsConfig,
  FakeCatalogOptions,
  GatewayConfig,
  LoopDetectionConfig,
  McpServerConfig,
  McpAlwaysVisible,
  McpOAuthSettings,
  PluginsConfig,
  ProviderConfig,
  StateSectionConfig,
  AuthSectionConfig,
  TelemetrySectionConfig,
  ProviderToolPolicy,
  ResolvedConfig,
  ResolvedToolSearch,
  ResolvedToolsConfig,
  SandboxMode,
  SandboxToolPolicy,
  ToolPolicyFields,
  ToolPolicyLists,
  ToolProfile,
  ToolSearchConfig,
  ToolSearchMode,
  ToolSearchOptions,
  EmbeddingsConfig,
  LearningConfig,
  ToolSearchSetting,
  ToolsConfig,
} from './types.js';
