export { MemorySessionStore, type MemorySessionStoreOptions } from './memory-store.js';
export { StateSessionStore, DEFAULT_SESSION_TTL_MS, type StateSessionStoreOptions } from './state-store.js';
export { createSessionHost, type SessionHost, type SessionTurnOptions } from './host.js';
export { wakeSession, type WakeNote, type WakeOutcome } from './wake.js';
export {
  DEFAULT_AGENT_ID,
  sessionKey,
  type SessionKind,
  type SessionPatch,
  type SessionRecord,
  type SessionStatus,
  type SessionStore,
  type SessionTurnReply,
  type SessionTurnRequest,
  type SessionTurnRunner,
  type TranscriptEntry,
} from './types.js';
export { SessionsErrors } from './errors.js';
export { MAIN_SESSION_KEY, mainSessionId, parseMainSessionId, sessionIdsOfKey } from './main-session.js';
