export { sessionsPlugin, SESSIONS_PLUGIN_NAME, type SessionsPluginOptions } from './plugin.js';
export {
  VISIBILITIES,
  DEFAULT_VISIBILITY,
  DEFAULT_SPAWN_LIMITS,
  type Visibility,
  type AgentEntry,
  type SharedCounter,
  type SpawnLimits,
} from './access.js';
export {
  DEFAULT_HISTORY_LIMIT,
  DEFAULT_LIST_LIMIT,
  DEFAULT_SEND_TIMEOUT_SECONDS,
  THINKING_LEVELS,
  REPLY_SKIP,
  ANNOUNCE_SKIP,
  MAX_PING_PONG_TURNS,
} from './tools.js';
export { SessionsErrors } from './errors.js';
export { DEFAULT_ATTACHMENT_LIMITS, type AttachmentLimits, type AttachmentReceipt } from './attachments.js';
