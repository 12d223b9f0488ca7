/** The error codes `@tool-search/plugin-sessions` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const SessionsErrors = defineErrors('@tool-search/plugin-sessions', {
  SESSION_UNKNOWN: '`sessions_*` / `session_status`: no gateway session with that key or id.',
  SESSION_NOT_VISIBLE:
    'The session exists but `tools.sessions.visibility` (self | tree | all) hides it from the caller.',
  SESSION_SEND_SELF: "`sessions_send` to the caller's own session (its turn is the one running).",
  SUBAGENT_NOT_ALLOWED:
    "`sessions_spawn` names an agent the caller's `agents.list[].subagents.allowAgents` does not allow.",
  SESSIONS_RUNTIME_UNAVAILABLE:
    'That sessions_spawn runtime is not configured here (acp needs an ACP runtime; subagent is always there).',
  SESSIONS_SPAWN_INVALID: 'sessions_spawn arguments that contradict each other (mode "session" needs thread: true).',
  SESSIONS_STREAM_UNSUPPORTED:
    'sessions_spawn streamTo "parent" streams an ACP run\'s progress and is for runtime "acp" only (OpenClaw refuses it for "subagent"); no ACP runtime is configured here.',
  SESSIONS_SANDBOX_REQUIRED: 'sessions_spawn with sandbox "require" from a run that is not sandboxed.',
  SESSIONS_ATTACHMENT_REFUSED:
    'A sessions_spawn attachment was refused: attachments off, a name that is not a plain file name, bad base64, or over a tools.sessions_spawn.attachments limit; nothing was written.',
});
