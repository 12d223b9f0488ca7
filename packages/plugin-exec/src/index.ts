// The public surface of @tool-search/plugin-exec: named exports only.
export { execPlugin, PLUGIN_NAME, EXEC_ID } from './plugin.js';
export type { ExecPluginOptions } from './plugin.js';
export { PROCESS_ID, LOG_DEFAULT_LINES } from './process.js';
export { checkExecConfig, EXEC_DEFAULTS, EXEC_LIMIT_DEFAULTS } from './options.js';
export type { ExecAsk, ExecConfig, ExecHost, ExecResourceLimits, ExecSecurity } from './options.js';
export { ExecErrors } from './errors.js';
export { probeBubblewrap, sandboxArgs, PROBE_TIMEOUTS_MS, SANDBOX_UID } from './sandbox.js';
export type { HiddenPath, ProbeResult, SandboxSpec } from './sandbox.js';
export { sandboxFilter, syscallAction, DENIED as DENIED_SYSCALLS } from './seccomp.js';
export type { LimitHit, LimitName } from './limits.js';
export { analyzeCommand } from './command.js';
export type { CommandAnalysis } from './command.js';
export { MAX_SESSION_OUTPUT_CHARS, MAX_RESULT_OUTPUT_CHARS } from './output.js';
export { MAX_SESSIONS_PER_AGENT } from './store.js';
export { EXEC_PATH } from './exec.js';
