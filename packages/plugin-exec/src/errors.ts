/** The codes this package raises beyond the kernel's (`EXEC_*` host, security and timeout codes are the kernel's). */
import { defineErrors } from '@tool-search/kernel';

export const ExecErrors = defineErrors('@tool-search/plugin-exec', {
  EXEC_LIMIT_EXCEEDED: 'A command reached one of tools.exec.limits (processes, memoryMb, cpuSeconds, fileSizeMb, tmpMb); the result names it.',
  EXEC_ELEVATED_NOT_ALLOWED:
    'The call asked for elevated (the gateway host with security=full), and tools.elevated.enabled is not true or this agent\'s tools.elevated.enabled is false; nothing ran.',
  EXEC_SANDBOX_SETUP_FAILED: 'The sandbox could not be prepared for a command (its process-limit group could not be made or joined); nothing ran.',
});
