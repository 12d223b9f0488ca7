export type { BoundOptions, SetOptions, StateKind, StateListener, StateStore } from './types.js';
export { MemoryStateStore, memoryReplicas, type MemoryStateOptions } from './memory.js';
// The Redis adapter loads on first connect (`connectRedisState`), not with the package.
export type { RedisStateStore } from './redis.js';
export { DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_KEY_PREFIX, type RedisStateOptions } from './redis-options.js';
export {
  connectRedisState,
  createStateStore,
  replicaIdOf,
  stateHealth,
  type CreateStateOptions,
  type StateConfig,
  type StateHealth,
} from './create.js';
export { StateErrors } from './errors.js';
export {
  DEFAULT_LOADED_TOOLS_TTL_MS,
  DEFAULT_MAX_LOADED_TOOLS,
  LOADED_TOOLS_PREFIX,
  loadedTools,
  type LoadedTools,
  type LoadedToolsOptions,
} from './loaded-tools.js';
