import type { AnyErrorCode } from './error-registry.js';
import { errorMessage } from './error-message.js';

/**
 * The kernel's own codes, each with what it means: what the kernel raises itself (plugins, sources, the catalog,
 * policy, calls, modes, runs) and the few every package shares (config, options, an unconfigured core tool, an
 * internal error). Closed: a package declares the codes it raises in its own `src/errors.ts` with `defineErrors`.
 * Tests assert `code`, never message text; codes are readable strings so a log line or a JSON result says what went
 * wrong without a lookup table.
 */
export const KERNEL_ERROR_CODES = {
  PLUGIN_DEPENDENCY_MISSING: '`kernel.use()` got a plugin whose `dependsOn` names a plugin not registered before it.',
  PLUGIN_DUPLICATE: 'Two plugins with the same name.',
  PLUGIN_INVALID: 'A plugin object without a name or an `apply` function.',
  KERNEL_SEALED: '`kernel.use()` after the first run: the kernel is sealed.',
  HOOK_STYLE_UNSUPPORTED: 'A plugin tapped an async hook with `tapAsync`; use `tap` or `tapPromise`.',
  SOURCE_FAILED: 'A tool source threw inside `listTools`; its tools are missing from the run.',
  SOURCE_TIMEOUT: 'A tool source did not finish `listTools` within the source timeout.',
  TOOL_INVALID: 'A tool definition is malformed (name, source, owner, description).',
  TOOL_SCHEMA_INVALID: "A tool's input or output schema is not valid JSON Schema; the tool is dropped.",
  TOOL_SCHEMA_PATTERN_UNENFORCED:
    "A tool's schema uses a `pattern` the linear-time engine cannot run (lookaround, backreference); it is not enforced.",
  TOOL_ID_DUPLICATE: 'The same tool id was contributed twice; the later one is dropped.',
  TOOL_NAME_SHADOWED: 'Two tools share a name across sources; the name resolves to the first by source precedence.',
  CLIENT_TOOL_COLLISION: "A client tool's name collides with a catalog tool: the run is refused.",
  POLICY_NOT_SUBSET: 'A `filterPolicy` tap returned something that is not a subset of its input.',
  POLICY_FAILED: 'A `filterPolicy` tap threw: the run fails closed.',
  POLICY_DENIED: 'Policy dropped a tool (used in diagnostics and explain traces).',
  AGENT_UNKNOWN:
    'A run names an agent id that `agents.list` does not have; the run is refused (`details.suggestions`).',
  UNKNOWN_TOOL: "The tool is not in the run's effective catalog (unknown, or dropped by policy).",
  TOOL_NOT_LOADED:
    "The model called a catalog tool by name before loading it: nothing ran; the answer carries the tool's input schema, and the tool is loaded for the next call.",
  TOOL_ARGUMENTS_INVALID: "Arguments do not match the tool's input schema; the tool did not run.",
  TOOL_EXECUTION_FAILED: 'The tool threw or reported a failure while running.',
  OBSERVER_FAILED:
    "An `afterToolCall` observer threw after the tool ran; the tool's outcome stands, the other observers still ran.",
  TOOL_TIMEOUT: 'The tool did not answer within its timeout.',
  TOOL_CALL_ABORTED: 'The call was cancelled by its caller.',
  TOOL_CALL_BLOCKED: 'A `beforeToolCall` tap blocked the call.',
  CLIENT_TOOL_NOT_EXECUTABLE: 'A tool executed by the client was called through a path that cannot hand it back.',
  MODE_UNKNOWN: 'No plugin materializes the requested exposure mode.',
  MATERIALIZE_FAILED: 'A `materialize` tap threw.',
  MODE_FALLBACK: 'A mode could not be used and the exposure fell back to another mode.',
  RUN_CLOSED: 'The run was closed; create a new one.',
  RUN_STOPPED: 'The run was stopped by a plugin (for example a loop circuit breaker).',
  CONFIG_INVALID: 'Configuration is invalid: `path` and `rule` say where and why.',
  CONFIG_UNREADABLE: 'The configuration file could not be read or parsed.',
  OPTIONS_INVALID: 'Plugin options are invalid.',
  TOOL_NOT_CONFIGURED:
    'A core tool is not listed because this deployment lacks what it needs (a key, a provider, a gateway); the message says what enables it.',
  PROVIDER_FAILED:
    'The model provider was unreachable or answered with an error; `details` has its URL and HTTP status.',
  INTERNAL_ERROR: 'An unexpected failure (a bug, not bad input); the message carries the cause.',
} as const satisfies Record<string, string>;

/** `ErrorCode.X === 'X'` for every kernel code (the wire string is the key). */
export const ErrorCode = Object.freeze(
  Object.fromEntries(Object.keys(KERNEL_ERROR_CODES).map((code) => [code, code])),
) as { readonly [K in keyof typeof KERNEL_ERROR_CODES]: K };

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
  constructor(
    path: string,
    rule: string,
    message: string,
    options: ToolSearchErrorOptions & { code?: AnyErrorCode } = {},
  ) {
    super(options.code ?? ErrorCode.CONFIG_INVALID, message, options);
    this.name = 'ConfigError';
    this.path = path;
    this.rule = rule;
  }
}

/** Arguments rejected by the tool's input schema before the tool ran. The message lists every violation, so one retry can fix them all. */
export class ToolArgumentsError extends ToolSearchError {
  readonly errors: readonly { path: string; rule: string; message: string }[];
  constructor(
    toolId: string,
    errors: readonly { path: string; rule: string; message: string }[],
    options: Pick<ToolSearchErrorOptions, 'cause'> = {},
  ) {
    const listed = errors.map((error) =>
      // An unknown key's path ends with the key; say so instead of Ajv's "must NOT have additional properties".
      error.rule === 'additionalProperties'
        ? `${error.path || '/'} is not a known argument`
        : `${error.path || '/'} ${error.message}`,
    );
    super(
      ErrorCode.TOOL_ARGUMENTS_INVALID,
      `Arguments for ${toolId} are invalid: ${listed.length ? listed.join('; ') : 'schema mismatch'}`,
      {
        toolId,
        details: { errors },
        ...(options.cause !== undefined ? { cause: options.cause } : {}),
      },
    );
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
      `unknown tool id "${requested}"` +
        (suggestions.length ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : ''),
      { details: { requested, suggestions } },
    );
    this.name = 'UnknownToolError';
    this.suggestions = suggestions;
  }
}

/** Wraps an unknown thrown value as a coded error, keeping it as `cause`. */
export function toToolSearchError(
  error: unknown,
  code: AnyErrorCode,
  context: ToolSearchErrorOptions = {},
): ToolSearchError {
  if (ToolSearchError.isInstance(error)) return error;
  const message = errorMessage(error);
  return new ToolSearchError(code, message, { ...context, cause: error });
}
