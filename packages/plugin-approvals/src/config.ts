/**
 * `tools.approvals`: which calls need approval and how long to wait. Checked
 * once, when the plugin is created.
 */
import { ConfigError, valueIssues } from '@tool-search/kernel';
import { approvalsConfigSchema } from './options.js';

export interface ApprovalsConfig {
  /** Tools that need approval: names, ids, `group:*`, `*` globs (matched like policy entries, case-insensitive). */
  readonly require?: readonly string[];
  /** How long to wait for an answer; no answer is a deny. Default 60000. */
  readonly timeoutMs?: number;
  /** Also require approval for tools annotated `destructiveHint: true`. Default false. */
  readonly requireDestructive?: boolean;
}

export interface ResolvedApprovalsConfig {
  readonly require: readonly string[];
  readonly timeoutMs: number;
  readonly requireDestructive: boolean;
}

export const DEFAULT_APPROVAL_TIMEOUT_MS = 60_000;

export { approvalsConfigSchema } from './options.js';

/** Validates and fills defaults; throws `CONFIG_INVALID` with a `tools.approvals.*` path. */
export function resolveApprovalsConfig(config: ApprovalsConfig = {}): ResolvedApprovalsConfig {
  const [issue] = valueIssues(approvalsConfigSchema, config);
  if (issue) {
    const path = ['tools', 'approvals', ...issue.path.split('/').filter(Boolean)].join('.');
    throw new ConfigError(path, issue.rule, `${path}: ${issue.message}`);
  }
  return Object.freeze({
    require: Object.freeze([...(config.require ?? [])]),
    timeoutMs: config.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    requireDestructive: config.requireDestructive ?? false,
  });
}
