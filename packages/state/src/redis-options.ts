/**
 * The Redis store's options and defaults, apart from the adapter itself so that importing the package does not load
 * the Redis client (~70–100 ms at start-up) for a process that keeps its state in memory.
 */

export interface RedisStateOptions {
  /** `redis://[[user]:password@]host[:port][/db]` (or `rediss://` for TLS). */
  readonly url: string;
  /** Prefix of every key and channel (default `tool-search:`). */
  readonly keyPrefix?: string;
  /** Deadline of one command in ms (default 2000). */
  readonly commandTimeoutMs?: number;
  readonly replicaId?: string;
  /** The first connection problem of each outage (the client reconnects on its own); default: one line on stderr. */
  readonly onError?: (error: Error) => void;
}

export const DEFAULT_KEY_PREFIX = 'tool-search:';
export const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;
