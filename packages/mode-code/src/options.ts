/** Options of code mode, their defaults, and their validation (coded `OPTIONS_INVALID`). */
import { ConfigError, ErrorCode } from '@tool-search/kernel';
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

/** Fills defaults and checks every number; throws `ConfigError` (`OPTIONS_INVALID`) with the option's path. */
export function resolveOptions(options: CodeModeOptions = {}): ResolvedOptions {
  const limits: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(options.limits ?? {})) {
    if (!(key in DEFAULT_LIMITS)) throw invalid(`limits.${key}`, 'additionalProperties', `unknown limit "${key}"`);
    if (value !== undefined) limits[key] = positiveInteger(`limits.${key}`, value);
  }
  if (options.onSpawn !== undefined && typeof options.onSpawn !== 'function') throw invalid('onSpawn', 'type', 'onSpawn must be a function');
  if (options.searchDefaultLimit !== undefined && options.maxSearchLimit !== undefined && options.searchDefaultLimit > options.maxSearchLimit) {
    throw invalid('searchDefaultLimit', 'maximum', 'searchDefaultLimit must not be larger than maxSearchLimit');
  }
  if (options.sandbox !== undefined && !SANDBOX_KINDS.includes(options.sandbox)) {
    throw invalid('sandbox', 'enum', `sandbox must be one of ${SANDBOX_KINDS.map((kind) => `"${kind}"`).join(', ')}`);
  }
  return {
    sandbox: options.sandbox ?? 'process',
    maxConcurrent: Math.min(MAX_CONCURRENT, options.maxConcurrent === undefined ? DEFAULT_MAX_CONCURRENT : positiveInteger('maxConcurrent', options.maxConcurrent)),
    codeTimeoutMs: options.codeTimeoutMs === undefined ? DEFAULT_CODE_TIMEOUT_MS : positiveInteger('codeTimeoutMs', options.codeTimeoutMs),
    ...(options.searchDefaultLimit !== undefined ? { searchDefaultLimit: positiveInteger('searchDefaultLimit', options.searchDefaultLimit) } : {}),
    ...(options.maxSearchLimit !== undefined ? { maxSearchLimit: positiveInteger('maxSearchLimit', options.maxSearchLimit) } : {}),
    warmPool: Math.min(MAX_WARM_POOL, options.warmPool === undefined ? 0 : nonNegativeInteger('warmPool', options.warmPool)),
    limits: limits as ResolvedLimits,
    ...descriptionOption(options.description),
    ...(options.onSpawn ? { onSpawn: options.onSpawn } : {}),
  };
}

/** The operator's description extension: a string of at most 2,000 characters (config `tools.toolSearch.description`). */
function descriptionOption(value: unknown): { description?: string } {
  if (value === undefined) return {};
  if (typeof value !== 'string') throw invalid('description', 'type', `description must be a string, got ${JSON.stringify(value)}`);
  if (value.length > 2000) throw invalid('description', 'maxLength', `description has ${value.length} characters; keep it to 2000 (say what the catalog holds, not every tool)`);
  return value.trim() ? { description: value.trim() } : {};
}

function positiveInteger(path: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw invalid(path, 'minimum', `${path} must be a positive integer`);
  return value;
}

function nonNegativeInteger(path: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalid(path, 'minimum', `${path} must be an integer of 0 or more`);
  return value;
}

function invalid(path: string, rule: string, message: string): ConfigError {
  return new ConfigError(path, rule, `${CODE_MODE_PLUGIN}: ${message}`, { code: ErrorCode.OPTIONS_INVALID, plugin: CODE_MODE_PLUGIN });
}
