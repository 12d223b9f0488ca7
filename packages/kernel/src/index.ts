// The public surface of @tool-search/kernel. Every export here is public API:
// named exports only, no wildcards.
export { createKernel } from './kernel.js';
export { KERNEL_VERSION } from './version.js';
export { deepFreeze } from './catalog.js';
export type { Kernel, KernelOptions } from './kernel.js';
export type { Run } from './run.js';
export type { ClientCall, RunOptions } from './client-calls.js';
export { withCallStatus } from './control-status.js';
export type { CallStatus } from './control-status.js';
export { createKernelHooks } from './hooks.js';
export type { KernelHooks, KernelHookName } from './hooks.js';
export { definePlugin, silentLogger } from './plugin.js';
export type {
  KernelPlugin,
  PluginApi,
  Logger,
  TapOptions,
  HookFacade,
  HookFacades,
  HookMapFacade,
  HookTapFn,
  PluginCommand,
  PluginCommands,
} from './plugin.js';
export { STAGE } from './stages.js';
export {
  ErrorCode,
  ToolSearchError,
  ConfigError,
  ToolArgumentsError,
  UnknownToolError,
  toToolSearchError,
} from './errors.js';
export type { ToolSearchErrorOptions } from './errors.js';
export { errorMessage } from './error-message.js';
export { defineErrors, listErrorCodes, ErrorCodeTakenError, KERNEL_OWNER } from './error-registry.js';
export type { AnyErrorCode, OwnedErrorCode, ErrorCodeInfo } from './error-registry.js';
export { createExposure, directTool, notLoadedResult } from './exposure.js';
export type { RunExposure, ExposureToolView } from './exposure.js';
export { suggestIds, editDistance } from './suggest.js';
export { compileToolSchema, checkSchema, toSchemaIssues } from './schema.js';
export { linearRegExp } from './schema-bounds.js';
export { surelyValid, valueIssues } from './surely-valid.js';
export type { SchemaIssue } from './schema.js';
export type {
  CallContext,
  CallDecision,
  CallOptions,
  CallScope,
  CallOrigin,
  CatalogMode,
  CatalogSink,
  ControlContext,
  ControlHandler,
  Diagnostic,
  DiagnosticLevel,
  ExecuteContext,
  Explanation,
  ExposedTool,
  ExposureDraft,
  JsonSchema,
  ListContext,
  MaterializeContext,
  PolicyContext,
  PolicyStep,
  RunApi,
  RunEvent,
  RunEventMap,
  RunInfo,
  RunRequest,
  ToolAnnotations,
  ToolCall,
  ToolCallOutcome,
  ToolContent,
  ToolDefinition,
  ToolDescriptor,
  ToolExecutor,
  ToolGuidance,
  ToolMeta,
  ToolResult,
  ToolSource,
} from './types.js';
