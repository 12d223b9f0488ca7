/** The error codes `@tool-search/plugin-sessions` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel';

export const SessionToolsErrors = defineErrors('@tool-search/plugin-sessions', {
  SESSION_UNKNOWN: '`sessions_*` / `session_status`: no gateway session with that key or id.',
  SESSION_NOT_VISIBLE: 'The session exists but `tools.sessions.visibility` (self | tree | all) hides it from the caller.',
  SESSION_SEND_SELF: '`sessions_send` to the caller\'s own session (its turn is the one running).',
  SUBAGENT_NOT_ALLOWED: '`sessions_spawn` names an agent the caller\'s `agents.list[].subagents.allowAgents` does not allow.',
});
