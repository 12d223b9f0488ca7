/**
 * The store a config asks for: Redis when `state.redis.url` is set, else an
 * in-process store. The replica id comes from `state.replicaId`, else
 * `TOOL_SEARCH_REPLICA_ID`, else `<hostname>-<pid>`.
 */
import { hostname } from 'node:os';
import { MemoryStateStore } from './memory.js';
import type { RedisStateOptions } from './redis-options.js';
import type { RedisStateStore } from './redis.js';
import type { StateStore } from './types.js';

/** The config's `state` block. */
export interface StateConfig {
  readonly redis?: { readonly url: string; readonly keyPrefix?: string; readonly commandTimeoutMs?: number };
  readonly replicaId?: string;
}

export interface CreateStateOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly onError?: (error: Error) => void;
}

export async function createStateStore(
  config: StateConfig = {},
  options: CreateStateOptions = {},
): Promise<StateStore> {
  const replicaId = replicaIdOf(config, options.env ?? process.env);
  if (!config.redis) return new MemoryStateStore({ replicaId });
  return connectRedisState({ ...config.redis, replicaId, ...(options.onError ? { onError: options.onError } : {}) });
}

/**
 * Connects to Redis (failing with `STATE_UNAVAILABLE` when it does not answer) and returns the store. The adapter and
 * its client load here, on first use: a process with in-process state never loads them.
 */
export async function connectRedisState(options: RedisStateOptions): Promise<RedisStateStore> {
  const { RedisStateStore } = await import('./redis.js');
  const store = new RedisStateStore(options);
  await store.connect();
  return store;
}

export function replicaIdOf(config: StateConfig, env: NodeJS.ProcessEnv = process.env): string {
  return config.replicaId ?? env['TOOL_SEARCH_REPLICA_ID'] ?? `${hostname()}-${process.pid}`;
}

/** A balancer's health check of a replica: its id, and whether its store answers now. */
export interface StateHealth {
  readonly replica: string;
  readonly state: { readonly kind: StateStore['kind']; readonly ok: boolean };
}

export async function stateHealth(state: StateStore): Promise<StateHealth> {
  return { replica: state.replicaId, state: { kind: state.kind, ok: await state.ping().catch(() => false) } };
}
