/** Options of code mode, their defaults, and their validation (coded `OPTIONS_INVALID`). */
import { checkModeOptions, optionsError, searchOptionsProperties } from '@tool-search/control-tools';
import { SANDBOX_KINDS, type SandboxKind } from './sandbox/kinds.js';

export const CODE_MODE_PLUGIN = '@tool-search/mode-code';

/** Bounds on one run of code; past a bound the result says what was cut. */
export interface CodeLimits {
  /** Largest code accepted, in bytes (default 65536). */
  readonly maxCodeBytes?: number;
  /** Console output kept, in bytes (default 16384). */
  readonly maxLogBytes?: number;
  /** Console lines kept (default 200). */
  readonly maxLogLines?: number;
  /** Largest return value, as JSON bytes (default 65536); a larger one comes back cut, as a string. */
  readonly maxResultBytes?: number;
  /** Bridge calls (search + describe + call) per run (default 64). */
  readonly maxBridgeCalls?: number;
  /** Bridge calls in flight at once (default 8). */
  readonly maxPendingCalls?: number;
  /** Heap limit of the sandbox process, in MiB (default 64); the QuickJS runtime's memory limit. */
  readonly memoryMb?: number;
  /** Resident memory of a sandbox process, V8 heap or not, in MiB (default 256; sampled on Linux, killed past it). */
  readonly rssMb?: number;
  /** Largest answer delivered into the sandbox, as JSON bytes (default 1 MiB); a larger one is cut and flagged. */
  readonly maxReplyBytes?: number;
}

export interface CodeModeOptions {
  /** The sandbox backend (default 'process'); when it cannot start: process → quickjs → tools mode. */
  readonly sandbox?: SandboxKind;
  /** Sandboxes running at once in this process (default 4, at most 64); further runs wait in a queue. */
  readonly maxConcurrent?: number;
  /** Wall-clock limit of one run, in ms (default 10000); the sandbox is killed past it. */
  readonly codeTimeoutMs?: number;
  /** Default hits per search query (passed to the search index). */
  readonly searchDefaultLimit?: number;
  /** Upper bound on a search `limit` (passed to the search index). */
  readonly maxSearchLimit?: number;
  /** Sandbox processes started ahead of time, each used for one run only (default 0, clamped to 8; process backend only). */
  readonly warmPool?: number;
  readonly limits?: CodeLimits;
  /** Appended to `tool_search_code`'s description (config `tools.toolSearch.description`); a run's `searchDescription` wins. */
  readonly description?: string;
  /** Observes every sandbox process started (tests, process accounting). */
  readonly onSpawn?: (pid: number) => void;
}

export type ResolvedLimits = Required<CodeLimits>;

export interface ResolvedOptions {
  readonly sandbox: SandboxKind;
  readonly maxConcurrent: number;
  readonly codeTimeoutMs: number;
  readonly searchDefaultLimit?: number;
  readonly maxSearchLimit?: number;
  readonly warmPool: number;
  readonly limits: ResolvedLimits;
  readonly description?: string;
  readonly onSpawn?: (pid: number) => void;
}

export const DEFAULT_LIMITS: ResolvedLimits = Object.freeze({
  maxCodeBytes: 64 * 1024,
  maxLogBytes: 16 * 1024,
  maxLogLines: 200,
  maxResultBytes: 64 * 1024,
  maxBridgeCalls: 64,
  maxPendingCalls: 8,
  memoryMb: 64,
  rssMb: 256,
  maxReplyBytes: 1024 * 1024,
});

export const DEFAULT_CODE_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_CONCURRENT = 4;
/** Bounds like the other limits: a larger value is lowered to these (each warm child is a Node process, ~40 MiB). */
export const MAX_WARM_POOL = 8;
export const MAX_CONCURRENT = 64;

const positive = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

/** JSON Schema of `CodeModeOptions` (`onSpawn`, a function, is checked apart). */
export const optionsSchema = {
  type: 'object',
  properties: {
    sandbox: { enum: [...SANDBOX_KINDS], description: 'The sandbox backend.' },
    maxConcurrent: {
      ...positive,
      description: `Sandboxes running at once in this process (at most ${MAX_CONCURRENT}).`,
    },
    codeTimeoutMs: { ...positive, description: 'Wall-clock limit of one run, in ms.' },
    ...searchOptionsProperties,
    warmPool: {
      type: 'integer',
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: `Sandbox processes started ahead of time (at most ${MAX_WARM_POOL}).`,
    },
    limits: {
      type: 'object',
      properties: Object.fromEntries(Object.keys(DEFAULT_LIMITS).map((key) => [key, positive])),
      additionalProperties: false,
    },
    onSpawn: {},
  },
  additionalProperties: false,
} as const;

const check = { plugin: CODE_MODE_PLUGIN, schema: optionsSchema, pathStyle: 'dotted' } as const;

/** Fills defaults and checks every option against `optionsSchema`; throws `ConfigError` (`OPTIONS_INVALID`) with the option's path. */
export function resolveOptions(options: CodeModeOptions = {}): ResolvedOptions {
  checkModeOptions(options, check);
  if (options.onSpawn !== undefined && typeof options.onSpawn !== 'function')
    throw optionsError(check, '/onSpawn', 'type', 'must be a function');
  if (
    options.searchDefaultLimit !== undefined &&
    options.maxSearchLimit !== undefined &&
    options.searchDefaultLimit > options.maxSearchLimit
  ) {
    throw optionsError(check, '/searchDefaultLimit', 'maximum', 'must not be larger than maxSearchLimit');
  }
  const limits = {
    ...DEFAULT_LIMITS,
    ...Object.fromEntries(Object.entries(options.limits ?? {}).filter(([, value]) => value !== undefined)),
  };
  const description = options.description?.trim();
  return {
    sandbox: options.sandbox ?? 'process',
    maxConcurrent: Math.min(MAX_CONCURRENT, options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT),
    codeTimeoutMs: options.codeTimeoutMs ?? DEFAULT_CODE_TIMEOUT_MS,
    ...(options.searchDefaultLimit !== undefined ? { searchDefaultLimit: options.searchDefaultLimit } : {}),
    ...(options.maxSearchLimit !== undefined ? { maxSearchLimit: options.maxSearchLimit } : {}),
    warmPool: Math.min(MAX_WARM_POOL, options.warmPool ?? 0),
    limits: limits as ResolvedLimits,
    ...(description ? { description } : {}),
    ...(options.onSpawn ? { onSpawn: options.onSpawn } : {}),
  };
}
