/** The codes `@tool-search/plugin-exec` raises (`APPROVAL_REQUIRED` is `@tool-search/approval-rules`', `FILE_NOT_FOUND` `@tool-search/workspace`'). */
import { defineErrors } from '@tool-search/kernel/errors';

export const ExecErrors = defineErrors('@tool-search/plugin-exec', {
  EXEC_LIMIT_EXCEEDED:
    'A command reached one of tools.exec.limits (processes, memoryMb, cpuSeconds, fileSizeMb, tmpMb); the result names it.',
  EXEC_ELEVATED_NOT_ALLOWED:
    "The call asked for elevated (the gateway host with security=full), and tools.elevated.enabled is not true or this agent's tools.elevated.enabled is false; nothing ran.",
  EXEC_SANDBOX_SETUP_FAILED:
    'The sandbox could not be prepared for a command (its process-limit group could not be made or joined, or what its user may reach could not be checked); nothing ran.',
  EXEC_SECURITY_DENY: '`exec`: the effective `security` is `deny`, so no command runs.',
  EXEC_NOT_ALLOWLISTED:
    '`exec`: an executable of the command is not on `tools.exec.allowlist` (or the command uses shell syntax the allowlist cannot vouch for) and `ask` is off.',
  EXEC_ARGUMENT_NOT_ALLOWED:
    '`exec`: an argument tries to widen what config allows (`security`, `host`, `ask`, `timeout`, `elevated`, `env.PATH`/`LD_*`); `details.rule` names it.',
  EXEC_HOST_UNAVAILABLE:
    '`exec`: the requested host cannot run commands here (no node host configured, bubblewrap missing, the sandbox user cannot reach the workspace).',
  EXEC_TIMEOUT: '`exec`: the command ran past its `timeout` and was killed.',
  PROCESS_SESSION_UNKNOWN:
    "`process`: no background session with that id for this agent (unknown, removed, or another agent's).",
  PROCESS_ON_OTHER_REPLICA: 'A background `exec` session lives on another replica; `details.replica` names it.',
});
