/** `exec` and `process` as the model sees them: OpenClaw's names and parameters, nothing more. */
import type { JsonSchema } from '@tool-search/kernel';

const str = (description: string, minLength = 0) => ({
  type: 'string',
  description,
  ...(minLength ? { minLength } : {}),
});
const bool = (description: string) => ({ type: 'boolean', description });
const int = (description: string, minimum: number) => ({ type: 'integer', minimum, description });
const oneOf = (values: string[], description: string) => ({ type: 'string', enum: values, description });

export const EXEC_DESCRIPTION =
  'Run a shell command in the workspace. It returns the output and exit code; past yieldMs (default 10000) it moves to the background and returns ' +
  'status "running" with a sessionId to use with the process tool. A non-zero exit is a normal result. Commands outside tools.exec.allowlist need approval or are refused.';

export const execSchema: JsonSchema = {
  type: 'object',
  properties: {
    command: str('Shell command to run', 1),
    workdir: str('Working folder inside the workspace (default: the workspace)'),
    env: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Extra environment variables (PATH, LD_*, BASH_ENV and the like are refused)',
    },
    yieldMs: int(
      'Milliseconds to wait before moving the command to the background (default and ceiling: tools.exec.yieldMs)',
      0,
    ),
    background: bool('Move to the background right away'),
    timeout: int('Kill the command after this many seconds (default and ceiling: tools.exec.timeoutSec, 1800)', 1),
    pty: bool('Run in a pseudo-terminal (for CLIs that need a TTY)'),
    host: oneOf(['sandbox', 'gateway', 'node'], 'Where to run; only as confined as config allows'),
    security: oneOf(['deny', 'allowlist', 'full'], 'Enforcement mode; may only be stricter than config'),
    ask: oneOf(['off', 'on-miss', 'always'], 'Approval prompts; may only ask more than config'),
    node: str('Node id or name for host "node"'),
    elevated: bool('Leave the sandbox for the gateway host, when tools.elevated allows it for this agent'),
  },
  required: ['command'],
  additionalProperties: false,
};

export const PROCESS_DESCRIPTION =
  'Manage background exec sessions of this agent: list them, poll for new output (and the exit status when done), read the log by lines ' +
  '(offset/limit; without offset the last lines), write to stdin, kill, clear a finished session or remove one.';

export const processSchema: JsonSchema = {
  type: 'object',
  properties: {
    action: oneOf(['list', 'poll', 'log', 'write', 'kill', 'clear', 'remove'], 'What to do'),
    sessionId: str('Background session id (from exec); needed by every action but list', 1),
    data: str('Text to write to stdin (action write)'),
    eof: bool('Close stdin after writing (action write)'),
    offset: int('First log line, 0-based (action log); without it the last lines', 0),
    limit: int('Number of log lines (action log; default 200)', 1),
  },
  required: ['action'],
  additionalProperties: false,
};
