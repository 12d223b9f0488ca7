/** Telemetry options and their check (a bad option fails at registration, not mid-run). */
import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { ConfigError, ErrorCode } from '@tool-search/kernel';
import { createSessionLogWriter, type SessionLogWriter } from './session-log.js';
import type { TokenizerName } from './tokens.js';
import type { StateStore } from '@tool-search/state';
import { DEFAULT_COUNTERS_TTL_MS } from './counters.js';

export interface TelemetryOptions {
  /** Write a JSONL log per session: a directory, or your own writer. Off by default. */
  readonly sessionLog?: { readonly dir: string } | SessionLogWriter;
  /** Defaults to the global OpenTelemetry meter provider. */
  readonly meterProvider?: MeterProvider;
  /** Defaults to the global OpenTelemetry tracer provider. */
  readonly tracerProvider?: TracerProvider;
  /** Tokenizer for request token counts; `false` turns counting off. Default `'o200k_base'`. */
  readonly tokenizer?: TokenizerName | false;
  /** Sessions kept in memory for `snapshot()` (oldest dropped first). Default 100. */
  readonly maxSessions?: number;
  /** Entries kept in memory per session (oldest dropped first; the session log file keeps all). Default 5000. */
  readonly maxEntriesPerSession?: number;
  /** Shared state: per-session counters (`sessionCounters`) summed across replicas. Off without it. */
  readonly state?: StateStore;
  /** How long a session's counters live past its last counted event. Default one day. */
  readonly countersTtlMs?: number;
}

export interface ResolvedOptions {
  readonly writer: SessionLogWriter | undefined;
  readonly logDir: string | undefined;
  readonly meterProvider: MeterProvider | undefined;
  readonly tracerProvider: TracerProvider | undefined;
  readonly tokenizer: TokenizerName | false;
  readonly maxSessions: number;
  readonly maxEntriesPerSession: number;
  readonly state: StateStore | undefined;
  readonly countersTtlMs: number;
}

export const PLUGIN_NAME = '@tool-search/telemetry';

export function resolveOptions(options: TelemetryOptions = {}): ResolvedOptions {
  const fail = (path: string, rule: string, message: string) =>
    new ConfigError(path, rule, `telemetry option ${path}: ${message}`, {
      code: ErrorCode.OPTIONS_INVALID,
      plugin: PLUGIN_NAME,
    });
  const { sessionLog } = options;
  let writer: SessionLogWriter | undefined;
  let logDir: string | undefined;
  if (sessionLog !== undefined) {
    if (typeof (sessionLog as SessionLogWriter).write === 'function') writer = sessionLog as SessionLogWriter;
    else if (typeof (sessionLog as { dir?: unknown }).dir === 'string' && (sessionLog as { dir: string }).dir) {
      const jsonl = createSessionLogWriter({ dir: (sessionLog as { dir: string }).dir });
      writer = jsonl;
      logDir = jsonl.dir;
    } else throw fail('sessionLog', 'type', 'must be { dir: string } or an object with write(entry)');
  }
  const tokenizer = options.tokenizer ?? 'o200k_base';
  if (tokenizer !== false && tokenizer !== 'o200k_base')
    throw fail('tokenizer', 'enum', "must be 'o200k_base' or false");
  const maxSessions = options.maxSessions ?? 100;
  if (!Number.isInteger(maxSessions) || maxSessions < 1)
    throw fail('maxSessions', 'minimum', 'must be an integer of at least 1');
  const maxEntriesPerSession = options.maxEntriesPerSession ?? 5000;
  if (!Number.isInteger(maxEntriesPerSession) || maxEntriesPerSession < 1)
    throw fail('maxEntriesPerSession', 'minimum', 'must be an integer of at least 1');
  const countersTtlMs = options.countersTtlMs ?? DEFAULT_COUNTERS_TTL_MS;
  if (!Number.isInteger(countersTtlMs) || countersTtlMs < 1000)
    throw fail('countersTtlMs', 'minimum', 'must be an integer of at least 1000 (ms)');
  return {
    writer,
    logDir,
    meterProvider: options.meterProvider,
    tracerProvider: options.tracerProvider,
    tokenizer,
    maxSessions,
    maxEntriesPerSession,
    state: options.state,
    countersTtlMs,
  };
}
