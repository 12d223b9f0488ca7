export { alwaysVisiblePlugin, isPinned, unmatchedPins, PINS_PLUGIN, type AlwaysVisibleOptions } from './pins.js';
export { PresetErrors } from './errors.js';
export { createToolSearchKernel, DEMO_CATALOG_NOTICE, KNOWN_PLUGINS, usesDemoCatalog } from './preset.js';
export type { Preset, PresetOptions } from './preset.js';
export { BUILTIN_PLUGINS, DEFAULT_FAKE_CATALOG } from './builtins.js';
export type { BuiltinPlugin } from './builtins.js';
export type { LoadedPluginModule } from './load-plugin.js';
export type { GatewayPages, PluginModule, PluginModuleHost, PluginModuleWant } from './plugin-module.js';
export { PLUGIN_MODULE_WANTS } from './plugin-module.js';
export { openToolSearchRun } from './open-run.js';
export { FRAMEWORK_MODES, withFrameworkSurface } from './framework-surface.js';
export type { FrameworkMode, FrameworkOptions, FrameworkSurface } from './framework-surface.js';
export type { ConversationLoads } from './conversation-loads.js';
export type { OpenRunOptions, RunSearchOptions, RunSurface, RunTool, ToolSearchRun } from './open-run.js';
export { UNAVAILABLE_CORE_TOOLS, GATEWAY_TOOL_ABSENT } from './unavailable-tools.js';
export { createFrontEnd } from './front-end.js';
export type { FrontEnd, FrontEndOptions } from './front-end.js';
export { buildModel, LEARNING_DEFAULTS, learnedOrder, SearchCallPairer, loadWebPlugin } from './front-end-parts.js';
export type { LearningEvent, LearningScope } from './front-end-parts.js';
export { ApprovalsErrors, McpErrors } from './front-end-parts.js';
export {
  compareRankings,
  loadMcpClient,
  normalizeClientTools,
  parseEmbeddingsOptions,
  readSnapshotFile,
  snapshotDescriptors,
  toSnapshot,
} from './front-end-parts.js';
export type { CatalogSnapshot, ClientToolInput, EmbeddingsOptions, RankingComparison } from './front-end-parts.js';
export { deploymentErrorCodes } from './error-codes.js';
// The codes a front end handles from the plugins the preset composes, so front ends import the preset, not plugins.
export { CodeErrors } from '@tool-search/mode-code';
// The errors entry only: the exec plugin itself loads with the core tools, not with every CLI command.
export { ExecErrors } from '@tool-search/plugin-exec/errors';
// The front ends, composed: the CLI's `gateway` and `serve mcp` parse arguments and make one of these calls.
export { runGateway, startGateway } from './run-gateway.js';
export type {
  GatewayRunOptions,
  ListeningGateway,
  LoadedGatewayConfig,
  StartedGateway,
  StartGatewayOptions,
} from './run-gateway.js';
export { DRAIN_MS } from './gateway-restart.js';
export { serveMcp, MCP_TOKEN_ENV, SERVE_MCP_MODES } from './serve-mcp.js';
export type { McpServeOptions } from './serve-mcp.js';
export { approvalsRoute } from './approvals-http.js';
export type { GatewayRoute, ServedQueue } from './approvals-http.js';
export { healthRoute } from './health-http.js';
export { appliedToolSearch, runSettingOf, searchLimitsOf } from './tool-search-setting.js';
export { gatewaySandboxFor, sandboxFieldOf, sandboxingKernel } from './sandboxed-runs.js';
export type { AppliedToolSearch } from './tool-search-setting.js';
export { stopped } from './stopped.js';
