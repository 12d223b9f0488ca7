// The public surface of @tool-search/mode-code. Every export here is public API:
// named exports only, no wildcards.
export { codeModePlugin, toToolResult } from './plugin.js';
export { runCode, sandboxesExited } from './run-code.js';
export type { RunCodeOptions } from './run-code.js';
export { CODE_MODE_PLUGIN, DEFAULT_CODE_TIMEOUT_MS, DEFAULT_LIMITS, optionsSchema } from './options.js';
export type { CodeLimits, CodeModeOptions } from './options.js';
export { CODE_TOOL_NAME, CODE_TOOL_DESCRIPTION, CODE_TOOL_INPUT_SCHEMA, CODE_MODE_SYSTEM } from './contract.js';
export type { CodeResult, CodeError, CodeLog, CodeTelemetry, CodeCuts, CancelledCall } from './result.js';
export { checkQuickJSSupport, checkSandboxSupport } from './sandbox/support.js';
export { SANDBOX_KINDS } from './sandbox/kinds.js';
export type { SandboxKind } from './sandbox/kinds.js';
export type { SandboxSupport } from './sandbox/support.js';
export { permissionFlag, sandboxCommand } from './sandbox/node-flags.js';
export type { PermissionFlag, SandboxCommand } from './sandbox/node-flags.js';
export { CodeErrors } from './errors.js';
