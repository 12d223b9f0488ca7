/** The codes `@tool-search/plugin-sessions` raises beyond the kernel's session codes. */
import { defineErrors } from '@tool-search/kernel';

export const SessionsErrors = defineErrors('@tool-search/plugin-sessions', {
  SESSIONS_RUNTIME_UNAVAILABLE: 'That sessions_spawn runtime is not configured here (acp needs an ACP runtime; subagent is always there).',
  SESSIONS_SPAWN_INVALID: 'sessions_spawn arguments that contradict each other (mode "session" needs thread: true).',
  SESSIONS_SANDBOX_REQUIRED: 'sessions_spawn with sandbox "require" from a run that is not sandboxed.',
  SESSIONS_ATTACHMENT_REFUSED: 'A sessions_spawn attachment was refused: attachments off, a name that is not a plain file name, bad base64, or over a tools.sessions_spawn.attachments limit; nothing was written.',
});
