/** The error codes `@tool-search/mode-code` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const CodeErrors = defineErrors('@tool-search/mode-code', {
  CODE_INVALID:
    'Code-mode code was refused before it ran: empty, too large, a syntax error, or forbidden syntax such as `import()`.',
  CODE_FAILED: "Code-mode code threw or rejected; `cause` carries the thrown error's name, message and code.",
  CODE_TIMEOUT: 'Code-mode code did not finish within `codeTimeoutMs`; the sandbox process was killed.',
  CODE_ABORTED:
    'Code-mode code was cancelled by its caller (AbortSignal or run closed); the sandbox process was killed.',
  CODE_LIMIT_EXCEEDED:
    "Code-mode code went past a bound (bridge calls in total or pending at once); see the result's `cut` flags.",
  SANDBOX_FAILED:
    'The code-mode sandbox process died (memory limit, crash) or broke the bridge protocol; it was killed.',
  SANDBOX_UNAVAILABLE:
    'No isolated sandbox process can be started on this runtime (no permission model, spawn refused).',
});
