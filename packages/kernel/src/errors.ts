import type { AnyErrorCode } from './error-registry.js';

/**
 * The closed set of coded errors every Tool Search package throws or reports.
 * Tests assert `code`, never message text. Codes are readable strings so a log
 * line or a JSON result says what went wrong without a lookup table.
 */
export const ErrorCode = {
  /** `kernel.use()` got a plugin whose `dependsOn` names a plugin not registered before it. */
  PLUGIN_DEPENDENCY_MISSING: 'PLUGIN_DEPENDENCY_MISSING',
  /** Two plugins with the same name. */
  PLUGIN_DUPLICATE: 'PLUGIN_DUPLICATE',
  /** A plugin object without a name or an `apply` function. */
  PLUGIN_INVALID: 'PLUGIN_INVALID',
  /** `kernel.use()` after the first run: the kernel is sealed. */
  KERNEL_SEALED: 'KERNEL_SEALED',
  /** A plugin tapped an async hook with `tapAsync`; use `tap` or `tapPromise`. */
  HOOK_STYLE_UNSUPPORTED: 'HOOK_STYLE_UNSUPPORTED',
  /** A tool source threw inside `listTools`; its tools are missing from the run. */
  SOURCE_FAILED: 'SOURCE_FAILED',
  /** A tool source did not finish `listTools` within the source timeout. */
  SOURCE_TIMEOUT: 'SOURCE_TIMEOUT',
  /** A tool definition is malformed (name, source, owner, description). */
  TOOL_INVALID: 'TOOL_INVALID',
  /** A tool's input or output schema is not valid JSON Schema; the tool is dropped. */
  TOOL_SCHEMA_INVALID: 'TOOL_SCHEMA_INVALID',
  /** A tool's schema uses a `pattern` the linear-time engine cannot run (lookaround, backreference); it is not enforced. */
  TOOL_SCHEMA_PATTERN_UNENFORCED: 'TOOL_SCHEMA_PATTERN_UNENFORCED',
  /** The same tool id was contributed twice; the later one is dropped. */
  TOOL_ID_DUPLICATE: 'TOOL_ID_DUPLICATE',
  /** Two tools share a name across sources; the name resolves to the first by source precedence. */
  TOOL_NAME_SHADOWED: 'TOOL_NAME_SHADOWED',
  /** A client tool's name collides with a catalog tool: the run is refused. */
  CLIENT_TOOL_COLLISION: 'CLIENT_TOOL_COLLISION',
  /** A `filterPolicy` tap returned something that is not a subset of its input. */
  POLICY_NOT_SUBSET: 'POLICY_NOT_SUBSET',
  /** A `filterPolicy` tap threw: the run fails closed. */
  POLICY_FAILED: 'POLICY_FAILED',
  /** Policy dropped a tool (used in diagnostics and explain traces). */
  POLICY_DENIED: 'POLICY_DENIED',
  /** An allowlist matched no known tool and was ignored. */
  POLICY_ALLOWLIST_IGNORED: 'POLICY_ALLOWLIST_IGNORED',
  /** A run names an agent id that `agents.list` does not have; the run is refused (`details.suggestions`). */
  AGENT_UNKNOWN: 'AGENT_UNKNOWN',
  /** A listed tool name only looks like plain ASCII (invisible or confusable characters); deny entries also match its folded form. */
  TOOL_NAME_LOOKALIKE: 'TOOL_NAME_LOOKALIKE',
  /** The tool is not in the run's effective catalog (unknown, or dropped by policy). */
  UNKNOWN_TOOL: 'UNKNOWN_TOOL',
  /** A name matches more than one tool; call it by id. */
  AMBIGUOUS_TOOL: 'AMBIGUOUS_TOOL',
  /** Arguments do not match the tool's input schema; the tool did not run. */
  TOOL_ARGUMENTS_INVALID: 'TOOL_ARGUMENTS_INVALID',
  /** The tool threw or reported a failure while running. */
  TOOL_EXECUTION_FAILED: 'TOOL_EXECUTION_FAILED',
  /** The tool did not answer within its timeout. */
  TOOL_TIMEOUT: 'TOOL_TIMEOUT',
  /** The call was cancelled by its caller. */
  TOOL_CALL_ABORTED: 'TOOL_CALL_ABORTED',
  /** A `beforeToolCall` tap blocked the call. */
  TOOL_CALL_BLOCKED: 'TOOL_CALL_BLOCKED',
  /** A tool executed by the client was called through a path that cannot hand it back. */
  CLIENT_TOOL_NOT_EXECUTABLE: 'CLIENT_TOOL_NOT_EXECUTABLE',
  /** No plugin materializes the requested exposure mode. */
  MODE_UNKNOWN: 'MODE_UNKNOWN',
  /** A `materialize` tap threw. */
  MATERIALIZE_FAILED: 'MATERIALIZE_FAILED',
  /** A mode could not be used and the exposure fell back to another mode. */
  MODE_FALLBACK: 'MODE_FALLBACK',
  /** The run was closed; create a new one. */
  RUN_CLOSED: 'RUN_CLOSED',
  /** The run was stopped by a plugin (for example a loop circuit breaker). */
  RUN_STOPPED: 'RUN_STOPPED',
  /** Configuration is invalid: `path` and `rule` say where and why. */
  CONFIG_INVALID: 'CONFIG_INVALID',
  /** The configuration file could not be read or parsed. */
  CONFIG_UNREADABLE: 'CONFIG_UNREADABLE',
  /** Plugin options are invalid. */
  OPTIONS_INVALID: 'OPTIONS_INVALID',
  /** An MCP server failed to start, initialize or list its tools (crash, timeout, bad output); its tools are missing from the run. */
  MCP_SERVER_FAILED: 'MCP_SERVER_FAILED',
  /** An MCP server is not connected (it died or was closed); the next run reconnects it. */
  MCP_SERVER_UNAVAILABLE: 'MCP_SERVER_UNAVAILABLE',
  /** Code-mode code was refused before it ran: empty, too large, a syntax error, or forbidden syntax such as `import()`. */
  CODE_INVALID: 'CODE_INVALID',
  /** Code-mode code threw or rejected; `cause` carries the thrown error's name, message and code. */
  CODE_FAILED: 'CODE_FAILED',
  /** Code-mode code did not finish within `codeTimeoutMs`; the sandbox process was killed. */
  CODE_TIMEOUT: 'CODE_TIMEOUT',
  /** Code-mode code was cancelled by its caller (AbortSignal or run closed); the sandbox process was killed. */
  CODE_ABORTED: 'CODE_ABORTED',
  /** Code-mode code went past a bound (bridge calls in total or pending at once); see the result's `cut` flags. */
  CODE_LIMIT_EXCEEDED: 'CODE_LIMIT_EXCEEDED',
  /** The code-mode sandbox process died (memory limit, crash) or broke the bridge protocol; it was killed. */
  SANDBOX_FAILED: 'SANDBOX_FAILED',
  /** No isolated sandbox process can be started on this runtime (no permission model, spawn refused). */
  SANDBOX_UNAVAILABLE: 'SANDBOX_UNAVAILABLE',
  /** An MCP server answered a tool call with a protocol error (not a tool result with `isError`). */
  MCP_CALL_FAILED: 'MCP_CALL_FAILED',
  /** An MCP server's answer was over the transport's message size limit; the message names both (and `details` has `size`, `limit`). */
  MCP_RESULT_TOO_LARGE: 'MCP_RESULT_TOO_LARGE',
  /** An MCP server's tool listing hit `maxToolsPerServer` or `maxListPages`; the tools listed up to there are kept. */
  MCP_LIST_TRUNCATED: 'MCP_LIST_TRUNCATED',
  /** An MCP server needs an OAuth login and has no usable token: run `tool-search mcp login <server>`. */
  MCP_AUTH_REQUIRED: 'MCP_AUTH_REQUIRED',
  /** The OAuth flow with an MCP server's authorization server failed (discovery, registration, token exchange). */
  MCP_AUTH_FAILED: 'MCP_AUTH_FAILED',
  /** A client tool given to a run is malformed (shape, name, schema or a duplicate name). */
  CLIENT_TOOL_INVALID: 'CLIENT_TOOL_INVALID',
  /** A telemetry session log (JSONL) has a line that is not a JSON entry; `details` has the file and line number. */
  SESSION_LOG_INVALID: 'SESSION_LOG_INVALID',
  /** An embedder (OpenAI-compatible `/v1/embeddings`) failed, was slow or answered badly: search fell back to lexical ranking. */
  EMBEDDINGS_UNAVAILABLE: 'EMBEDDINGS_UNAVAILABLE',
  /** A search `rerank` tap threw: the ranking before it stood (`details.plugin` names the tap). */
  SEARCH_RERANK_FAILED: 'SEARCH_RERANK_FAILED',
  /** An approval answer is not 'allow' or 'deny' (`ApprovalQueue#answer`); nothing was decided. */
  APPROVAL_ANSWER_INVALID: 'APPROVAL_ANSWER_INVALID',
  /** A catalog snapshot file cannot be read or is not a snapshot (`tools: [...]` of named tools); `details` has the file and the entry. */
  SNAPSHOT_INVALID: 'SNAPSHOT_INVALID',
  /** `web_fetch`: the URL may not be fetched (not http(s), or it resolves to a private, loopback or link-local address); `details.rule` says which. */
  URL_NOT_ALLOWED: 'URL_NOT_ALLOWED',
  /** `web_fetch`: the page could not be fetched (network error, timeout, HTTP error status, too many redirects); `details` has the URL and status. */
  FETCH_FAILED: 'FETCH_FAILED',
  /** `web_search`: the search provider failed or answered in a shape it does not document; `details` has the provider and status. */
  SEARCH_PROVIDER_FAILED: 'SEARCH_PROVIDER_FAILED',
  /** A core tool is not listed because this deployment lacks what it needs (a key, a provider, a gateway); the message says what enables it. */
  TOOL_NOT_CONFIGURED: 'TOOL_NOT_CONFIGURED',
  /** `memory_get`: the path is not a memory file (`MEMORY.md` or `memory/*.md`). */
  MEMORY_PATH_INVALID: 'MEMORY_PATH_INVALID',
  /** `pdf`: the file is not a readable PDF, or is larger than the limit; `details.rule` says which. */
  PDF_UNREADABLE: 'PDF_UNREADABLE',
  /** A core file tool's path leads outside the workspace (`..`, an absolute path, or a symlink out); `details.rule` says which. */
  PATH_OUTSIDE_WORKSPACE: 'PATH_OUTSIDE_WORKSPACE',
  /** A core file tool found no file (or a folder) at the path. */
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  /** `edit`: `oldText` does not occur in the file. */
  EDIT_NO_MATCH: 'EDIT_NO_MATCH',
  /** `edit`: `oldText` occurs more than once; add surrounding lines to make it unique. */
  EDIT_NOT_UNIQUE: 'EDIT_NOT_UNIQUE',
  /** `apply_patch`: the input is not a `*** Begin Patch` … `*** End Patch` envelope; `details.line` names the line. */
  PATCH_INVALID: 'PATCH_INVALID',
  /** `apply_patch`: a hunk does not apply (context not found, file exists or is missing); nothing was changed. */
  PATCH_CONFLICT: 'PATCH_CONFLICT',
  /** `exec`: the effective `security` is `deny`, so no command runs. */
  EXEC_SECURITY_DENY: 'EXEC_SECURITY_DENY',
  /** `exec`: an executable of the command is not on `tools.exec.allowlist` (or the command uses shell syntax the allowlist cannot vouch for) and `ask` is off. */
  EXEC_NOT_ALLOWLISTED: 'EXEC_NOT_ALLOWLISTED',
  /** `exec`: an argument tries to widen what config allows (`security`, `host`, `ask`, `timeout`, `elevated`, `env.PATH`/`LD_*`); `details.rule` names it. */
  EXEC_ARGUMENT_NOT_ALLOWED: 'EXEC_ARGUMENT_NOT_ALLOWED',
  /** `exec`: the requested host cannot run commands here (no node host configured, bubblewrap missing). */
  EXEC_HOST_UNAVAILABLE: 'EXEC_HOST_UNAVAILABLE',
  /** `exec`: the command ran past its `timeout` and was killed. */
  EXEC_TIMEOUT: 'EXEC_TIMEOUT',
  /** A call needs an approval (for example `exec` with `ask`) but no approvals plugin answered for it: denied. */
  APPROVAL_REQUIRED: 'APPROVAL_REQUIRED',
  /** `process`: no background session with that id for this agent (unknown, removed, or another agent's). */
  PROCESS_SESSION_UNKNOWN: 'PROCESS_SESSION_UNKNOWN',
  /** A gateway request body is malformed (not the API's shape, too deep, bad content); nothing ran. */
  REQUEST_INVALID: 'REQUEST_INVALID',
  /** A gateway request body is larger than the configured limit (HTTP 413). */
  REQUEST_TOO_LARGE: 'REQUEST_TOO_LARGE',
  /** The model provider was unreachable or answered with an error; `details` has its URL and HTTP status. */
  PROVIDER_FAILED: 'PROVIDER_FAILED',
  /** A server could not listen because its port is taken; `details.port` names it. */
  PORT_IN_USE: 'PORT_IN_USE',
  /** A plugin module named in the config could not be resolved or imported, has no factory, or its factory or `apply` threw; `details.module` names it. */
  PLUGIN_LOAD_FAILED: 'PLUGIN_LOAD_FAILED',
  /** A plugin module declares a kernel range the running kernel does not satisfy; `details` has both versions. */
  PLUGIN_KERNEL_MISMATCH: 'PLUGIN_KERNEL_MISMATCH',
  /** A command line the CLI cannot run (unknown command, flag or choice); exit code 2. */
  CLI_USAGE_INVALID: 'CLI_USAGE_INVALID',
  /** A CLI input the user can fix (a flag value, a file, a tool name); exit code 1. */
  CLI_INPUT_INVALID: 'CLI_INPUT_INVALID',
  /** An unexpected failure (a bug, not bad input); the message carries the cause. */
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  /** `sessions_*` / `session_status`: no gateway session with that key or id. */
  SESSION_UNKNOWN: 'SESSION_UNKNOWN',
  /** The session exists but `tools.sessions.visibility` (self | tree | all) hides it from the caller. */
  SESSION_NOT_VISIBLE: 'SESSION_NOT_VISIBLE',
  /** `sessions_send` to the caller's own session (its turn is the one running). */
  SESSION_SEND_SELF: 'SESSION_SEND_SELF',
  /** The session tools were called where no gateway runs turns. */
  SESSIONS_UNAVAILABLE: 'SESSIONS_UNAVAILABLE',
  /** `sessions_spawn` names an agent the caller's `agents.list[].subagents.allowAgents` does not allow. */
  SUBAGENT_NOT_ALLOWED: 'SUBAGENT_NOT_ALLOWED',
  /** `cron`: no job with that id. */
  CRON_JOB_UNKNOWN: 'CRON_JOB_UNKNOWN',
  /** `cron`: a job's schedule (cron expression, time zone, interval or time) is invalid. */
  CRON_SCHEDULE_INVALID: 'CRON_SCHEDULE_INVALID',
  /** `image`: the file is not a PNG, JPEG, GIF or WebP image, or is larger than the limit (`details.rule`). */
  IMAGE_UNREADABLE: 'IMAGE_UNREADABLE',
  /** The shared state store (Redis) cannot be reached or did not answer in time; state-dependent decisions fail closed. */
  STATE_UNAVAILABLE: 'STATE_UNAVAILABLE',
  /** A background `exec` session lives on another replica; `details.replica` names it. */
  PROCESS_ON_OTHER_REPLICA: 'PROCESS_ON_OTHER_REPLICA',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const BRAND = Symbol.for('@tool-search/kernel/ToolSearchError');

export interface ToolSearchErrorOptions {
  plugin?: string;
  hook?: string;
  toolId?: string;
  cause?: unknown;
  details?: Record<string, unknown>;
}

/** Base of every coded error. `isInstance` works across duplicate package copies. */
export class ToolSearchError extends Error {
  readonly code: AnyErrorCode;
  readonly plugin?: string;
  readonly hook?: string;
  readonly toolId?: string;
  readonly details?: Record<string, unknown>;

  constructor(code: AnyErrorCode, message: string, options: ToolSearchErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolSearchError';
    this.code = code;
    if (options.plugin !== undefined) this.plugin = options.plugin;
    if (options.hook !== undefined) this.hook = options.hook;
    if (options.toolId !== undefined) this.toolId = options.toolId;
    if (options.details !== undefined) this.details = options.details;
    Object.defineProperty(this, BRAND, { value: true });
  }

  static isInstance(value: unknown): value is ToolSearchError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  /** A plain, JSON-safe view for results handed to a model or a client. */
  toJSON(): { code: AnyErrorCode; message: string; [key: string]: unknown } {
    return {
      code: this.code,
      message: this.message,
      ...(this.plugin ? { plugin: this.plugin } : {}),
      ...(this.hook ? { hook: this.hook } : {}),
      ...(this.toolId ? { toolId: this.toolId } : {}),
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

/** Bad configuration: `path` is a JSON path into the config, `rule` the broken rule. */
export class ConfigError extends ToolSearchError {
  readonly path: string;
  readonly rule: string;
  constructor(path: string, rule: string, message: string, options: ToolSearchErrorOptions & { code?: AnyErrorCode } = {}) {
    super(options.code ?? ErrorCode.CONFIG_INVALID, message, options);
    this.name = 'ConfigError';
    this.path = path;
    this.rule = rule;
  }
}

/** Arguments rejected by the tool's input schema before the tool ran. The message lists every violation, so one retry can fix them all. */
export class ToolArgumentsError extends ToolSearchError {
  readonly errors: readonly { path: string; rule: string; message: string }[];
  constructor(toolId: string, errors: readonly { path: string; rule: string; message: string }[]) {
    const listed = errors.map((error) =>
      // An unknown key's path ends with the key; say so instead of Ajv's "must NOT have additional properties".
      error.rule === 'additionalProperties' ? `${error.path || '/'} is not a known argument` : `${error.path || '/'} ${error.message}`,
    );
    super(ErrorCode.TOOL_ARGUMENTS_INVALID, `Arguments for ${toolId} are invalid: ${listed.length ? listed.join('; ') : 'schema mismatch'}`, {
      toolId,
      details: { errors },
    });
    this.name = 'ToolArgumentsError';
    this.errors = errors;
  }
}

/** The tool is not in the run's effective catalog. `suggestions` are the closest allowed ids. */
export class UnknownToolError extends ToolSearchError {
  readonly suggestions: readonly string[];
  constructor(requested: string, suggestions: readonly string[]) {
    super(
      ErrorCode.UNKNOWN_TOOL,
      `unknown tool id "${requested}"` + (suggestions.length ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : ''),
      { details: { requested, suggestions } },
    );
    this.name = 'UnknownToolError';
    this.suggestions = suggestions;
  }
}

/** Wraps an unknown thrown value as a coded error, keeping it as `cause`. */
export function toToolSearchError(error: unknown, code: AnyErrorCode, context: ToolSearchErrorOptions = {}): ToolSearchError {
  if (ToolSearchError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ToolSearchError(code, message, { ...context, cause: error });
}
