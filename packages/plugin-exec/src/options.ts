/**
 * `tools.exec` (and `tools.elevated`) as the exec plugin takes them, checked
 * once when the plugin is created. Defaults: `host: "sandbox"` (never host
 * execution unless configured: without bubblewrap exec is not listed),
 * `security: "allowlist"`, `ask: "on-miss"`, `timeoutSec: 1800`, `yieldMs:
 * 10000`, `limits` as in EXEC_LIMIT_DEFAULTS.
 */
import { ConfigError, type JsonSchema, valueIssues } from '@tool-search/kernel';

export type ExecHost = 'sandbox' | 'gateway' | 'node';
export type ExecSecurity = 'deny' | 'allowlist' | 'full';
export type ExecAsk = 'off' | 'on-miss' | 'always';

export interface ExecConfig {
  readonly host?: ExecHost;
  readonly security?: ExecSecurity;
  readonly ask?: ExecAsk;
  /** Executables `security: "allowlist"` runs: bare names (`git`) or absolute paths / globs (`/usr/bin/*`). */
  readonly allowlist?: readonly string[];
  /** Default and ceiling of a call's `timeout`, in seconds. */
  readonly timeoutSec?: number;
  /** Default and ceiling of a call's `yieldMs`. */
  readonly yieldMs?: number;
  /** Environment every command gets (on top of PATH, HOME, LANG, TERM); nothing else of this process is passed. */
  readonly env?: Readonly<Record<string, string>>;
  /** Resource bounds of every command (each key optional; EXEC_LIMIT_DEFAULTS fill the rest). */
  readonly limits?: Partial<ExecResourceLimits>;
}

/** `tools.exec.limits`: what one command (with everything it starts) may use. */
export interface ExecResourceLimits {
  /** Processes and threads at once (a pids cgroup where this machine allows one, else RLIMIT_NPROC). */
  readonly processes: number;
  /** Writable memory of each process, MiB (RLIMIT_DATA: heap and private mappings). */
  readonly memoryMb: number;
  /** CPU time of each process, seconds (RLIMIT_CPU: SIGXCPU, SIGKILL 2 s later). */
  readonly cpuSeconds: number;
  /** Largest file a command may write, MiB (RLIMIT_FSIZE), in the workspace or anywhere. */
  readonly fileSizeMb: number;
  /** Size of the sandbox's private /tmp (a tmpfs, RAM-backed), MiB. */
  readonly tmpMb: number;
}

export const EXEC_LIMIT_DEFAULTS: ExecResourceLimits = Object.freeze({
  processes: 256,
  memoryMb: 1024,
  cpuSeconds: 600,
  fileSizeMb: 128,
  tmpMb: 256,
});

export const EXEC_DEFAULTS = Object.freeze({
  security: 'allowlist',
  ask: 'on-miss',
  timeoutSec: 1800,
  yieldMs: 10_000,
} as const);

/** JSON Schema of `tools.exec` (exported for its tests). */
export const execConfigSchema: JsonSchema = {
  type: 'object',
  properties: {
    host: { enum: ['sandbox', 'gateway', 'node'] },
    security: { enum: ['deny', 'allowlist', 'full'] },
    ask: { enum: ['off', 'on-miss', 'always'] },
    allowlist: { type: 'array', items: { type: 'string', minLength: 1 } },
    timeoutSec: { type: 'integer', minimum: 1, maximum: 86_400 },
    yieldMs: { type: 'integer', minimum: 0, maximum: 3_600_000 },
    env: { type: 'object', additionalProperties: { type: 'string' } },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        processes: { type: 'integer', minimum: 8, maximum: 65_536 },
        memoryMb: { type: 'integer', minimum: 16, maximum: 1_048_576 },
        cpuSeconds: { type: 'integer', minimum: 1, maximum: 604_800 },
        fileSizeMb: { type: 'integer', minimum: 1, maximum: 1_048_576 },
        tmpMb: { type: 'integer', minimum: 1, maximum: 1_048_576 },
      },
    },
  },
};

/** Validates `tools.exec` (other OpenClaw keys such as `applyPatch` pass through); throws CONFIG_INVALID with a `tools.exec.*` path. */
export function checkExecConfig(config: unknown): ExecConfig {
  const [issue] = valueIssues(execConfigSchema, config ?? {});
  if (issue) {
    const path = ['tools', 'exec', ...issue.path.split('/').filter(Boolean)].join('.');
    throw new ConfigError(path, issue.rule, `${path}: ${issue.message}`);
  }
  return (config ?? {}) as ExecConfig;
}
