/**
 * The state backends a replica test runs against: the in-process store always, and a real redis-server (started on
 * first use, on a free loopback port) where one is installed — otherwise a warning says why that half is skipped.
 * Every `views` call makes one fresh store as the named replicas see it: in-process views of one store, or one Redis
 * client per replica on a key prefix of its own. Generic over the store, so this package does not depend on
 * `@tool-search/state` (whose own tests use it): pass its `memoryReplicas` and `connectRedisState`.
 */
import { randomUUID } from 'node:crypto';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from './redis-server.js';

export type StateBackendKind = 'memory' | 'redis';

export interface StateBackendFactories<S> {
  /** Views of one in-process store, one per replica id. */
  memory(replicaIds: readonly string[]): S[];
  /** One client of the Redis at `url` for one replica. */
  redis(options: { url: string; keyPrefix: string; replicaId: string }): Promise<S>;
}

export interface StateBackends<S> {
  /** Whether redis-server is installed here. */
  readonly redisAvailable: boolean;
  /** `['memory', 'redis']`, or `['memory']` without redis-server: for `describe.each`. */
  readonly kinds: readonly StateBackendKind[];
  /** A fresh store as replicas `replicaIds` see it, one view each. */
  views(kind: StateBackendKind, replicaIds: readonly string[]): Promise<S[]>;
  /** A fresh store as two replicas (`a`, `b` unless named) see it. */
  pair(kind: StateBackendKind, replicaIds?: readonly [string, string]): Promise<[S, S]>;
  /** Closes the stores made so far (e.g. after each test). */
  closeStores(): Promise<void>;
  /** Closes the stores and stops redis-server (after all tests). */
  close(): Promise<void>;
}

// Test files may share one process (worker threads): a random part keeps their keys apart on any one server.
const run = randomUUID().slice(0, 8);
let prefixes = 0;

/** `what` names the tests in the warning when redis-server is missing. */
export function stateBackends<S extends { close(): Promise<unknown> }>(
  what: string,
  make: StateBackendFactories<S>,
): StateBackends<S> {
  const redisAvailable = redisServerAvailable();
  if (!redisAvailable)
    console.warn(`skipping the Redis runs of ${what}: redis-server is not installed (apt-get install -y redis-server)`);
  let server: Promise<RedisServerHandle> | undefined;
  const made: S[] = [];
  const closeStores = async () => {
    await Promise.all(made.splice(0).map((store) => store.close()));
  };
  const views = async (kind: StateBackendKind, replicaIds: readonly string[]): Promise<S[]> => {
    if (kind === 'memory') return make.memory(replicaIds);
    const { url } = await (server ??= startRedisServer());
    const keyPrefix = `test-${run}-${prefixes++}:`;
    const opened: S[] = [];
    for (const replicaId of replicaIds) opened.push(await make.redis({ url, keyPrefix, replicaId }));
    made.push(...opened);
    return opened;
  };
  return {
    redisAvailable,
    kinds: redisAvailable ? ['memory', 'redis'] : ['memory'],
    views,
    async pair(kind, replicaIds = ['a', 'b']) {
      const [a, b] = await views(kind, replicaIds);
      return [a!, b!];
    },
    closeStores,
    async close() {
      await closeStores();
      await (await server)?.stop();
    },
  };
}
