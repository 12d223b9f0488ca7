export { sessionsPlugin, SESSIONS_PLUGIN_NAME, type SessionsPluginOptions } from './plugin.js';
export { VISIBILITIES, DEFAULT_VISIBILITY, DEFAULT_SPAWN_LIMITS, type Visibility, type AgentEntry, type SpawnLimits } from './access.js';
export { DEFAULT_HISTORY_LIMIT, DEFAULT_LIST_LIMIT, DEFAULT_SEND_TIMEOUT_SECONDS } from './tools.js';
export { SessionToolsErrors } from './errors.js';
