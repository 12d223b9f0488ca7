/**
 * `tools.exec` (and `tools.elevated`) as the exec plugin takes them, checked
 * once when the plugin is created. Defaults: `host: "sandbox"` where
 * bubblewrap runs (else `"gateway"`, with a diagnostic), `security:
 * "allowlist"`, `ask: "on-miss"`, `timeoutSec: 1800`, `yieldMs: 10000`.
 */
import { ConfigError, compileToolSchema, toSchemaIssues, type JsonSchema } from '@tool-search/kernel';

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
}

export const EXEC_DEFAULTS = Object.freeze({ security: 'allowlist', ask: 'on-miss', timeoutSec: 1800, yieldMs: 10_000 } as const);

const execConfigSchema: JsonSchema = {
  type: 'object',
  properties: {
    host: { enum: ['sandbox', 'gateway', 'node'] },
    security: { enum: ['deny', 'allowlist', 'full'] },
    ask: { enum: ['off', 'on-miss', 'always'] },
    allowlist: { type: 'array', items: { type: 'string', minLength: 1 } },
    timeoutSec: { type: 'integer', minimum: 1, maximum: 86_400 },
    yieldMs: { type: 'integer', minimum: 0, maximum: 3_600_000 },
    env: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

/** Validates `tools.exec` (other OpenClaw keys such as `applyPatch` pass through); throws CONFIG_INVALID with a `tools.exec.*` path. */
export function checkExecConfig(config: unknown): ExecConfig {
  const validate = compileToolSchema(execConfigSchema);
  if (typeof validate !== 'function') throw new ConfigError('tools.exec', validate.rule, validate.message);
  if (!validate(config ?? {})) {
    const issue = toSchemaIssues(validate.errors)[0]!;
    const path = ['tools', 'exec', ...issue.path.split('/').filter(Boolean)].join('.');
    throw new ConfigError(path, issue.rule, `${path}: ${issue.message}`);
  }
  return (config ?? {}) as ExecConfig;
}
