/**
 * The shared state store: the few operations the gateway, the MCP server and
 * their plugins keep state with, so one interface serves a process of its own
 * (memory) and replicas behind a load balancer (Redis). Every key has a TTL
 * and every collection a bound: nothing a client sends grows a store forever.
 * Adapters throw `STATE_UNAVAILABLE` when the store cannot answer; callers
 * deciding policy (loop detection, approvals) fail closed on it.
 */

export type StateKind = 'memory' | 'redis';

export interface SetOptions {
  /** Time to live in ms (required: no key lives forever). */
  readonly ttlMs: number;
  /** Only set when the key does not exist (a lock); `set` then returns false when it did. */
  readonly ifAbsent?: boolean;
}

export interface BoundOptions {
  /** Entries kept: the oldest (lists) or lowest-scored (indexes) go first. */
  readonly max: number;
  readonly ttlMs: number;
}

export type StateListener = (message: string) => void;

export interface StateStore {
  readonly kind: StateKind;
  /** Who this process is among the replicas (ownership records, telemetry's resource attribute). */
  readonly replicaId: string;

  get(key: string): Promise<string | undefined>;
  /** Returns false only when `ifAbsent` was set and the key existed. */
  set(key: string, value: string, options: SetOptions): Promise<boolean>;
  /** Deletes and returns the value in one step: of two replicas taking one key, exactly one gets it. */
  take(key: string): Promise<string | undefined>;
  /** Returns whether the key existed. */
  delete(key: string): Promise<boolean>;
  /** Renews a key's TTL; false when it does not exist (expired or deleted). */
  touch(key: string, ttlMs: number): Promise<boolean>;

  /** Adds `by` to one counter of a counter group and returns the new value. */
  increment(key: string, field: string, by: number, ttlMs: number): Promise<number>;
  /** Every counter of a group (empty when none). */
  counters(key: string): Promise<Record<string, number>>;

  /** Appends to a bounded list (oldest entries drop past `max`); returns the list's length. */
  append(key: string, values: readonly string[], options: BoundOptions): Promise<number>;
  /** The list, oldest first; `limit` keeps the newest `limit` entries. */
  range(key: string, limit?: number): Promise<string[]>;

  /** Adds or re-scores a member of a bounded index (lowest scores drop past `max`). */
  index(key: string, member: string, score: number, options: BoundOptions): Promise<void>;
  /** Members, highest score first; `limit` keeps the first `limit`. */
  members(key: string, limit?: number): Promise<string[]>;
  unindex(key: string, member: string): Promise<void>;

  /** Sends to every subscriber of `channel`, on every replica (at most once; a replica that is down misses it). */
  publish(channel: string, message: string): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(channel: string, listener: StateListener): Promise<() => Promise<void>>;

  /** Whether the store answers now (health checks). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
