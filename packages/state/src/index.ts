export type { BoundOptions, SetOptions, StateKind, StateListener, StateStore } from './types.js';
export { MemoryStateStore, memoryReplicas, type MemoryStateOptions } from './memory.js';
export { RedisStateStore, connectRedisState, DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_KEY_PREFIX, type RedisStateOptions } from './redis.js';
export { createStateStore, replicaIdOf, stateHealth, type CreateStateOptions, type StateConfig, type StateHealth } from './create.js';
