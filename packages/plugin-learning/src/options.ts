/**
 * Options of `learningPlugin` and the JSON Schema that checks them (one source
 * for the type, the check and the README table). `state` and `now` are objects
 * the composer passes, not JSON, so the schema leaves them out.
 */
import { ConfigError, ErrorCode, valueIssues } from '@tool-search/kernel';
import type { StateStore } from '@tool-search/state';

export type LearningScope = 'agent' | 'deployment';

export interface LearningSettings {
  /** Off: the plugin taps nothing. Default true (the preset composes it only when `tools.toolSearch.learning` allows). */
  readonly enabled?: boolean;
  /** Whose calls teach whose searches: each agent its own (default), or one signal for the whole deployment. */
  readonly scope?: LearningScope;
  /** A call's weight halves every `halfLifeDays` (default 14). */
  readonly halfLifeDays?: number;
  /** Calls kept per scope (agent); the oldest go first (default 2000). */
  readonly maxEntries?: number;
  /** A word leads to a tool once this many (decayed) calls say so: "repeatedly" (default 2). */
  readonly minCalls?: number;
  /** How strongly the learned share moves a tool against the lexical rank (default 0.3; 0 records without ranking). */
  readonly weight?: number;
}

export interface LearningOptions extends LearningSettings {
  /** Where the calls live: share one (Redis) between replicas. Default: a store of this plugin's own, in-process. */
  readonly state?: StateStore;
  /** A replica re-reads its scope's calls at most this often (ms, default 5000); its own calls count at once. */
  readonly refreshMs?: number;
  /** The clock (tests of decay). */
  readonly now?: () => number;
}

export const DEFAULTS = {
  enabled: true,
  scope: 'agent',
  halfLifeDays: 14,
  maxEntries: 2000,
  minCalls: 2,
  weight: 0.3,
  refreshMs: 5000,
} as const;

export const learningSettingsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean' },
    scope: { enum: ['agent', 'deployment'] },
    halfLifeDays: { type: 'number', exclusiveMinimum: 0, maximum: 3650 },
    maxEntries: { type: 'integer', minimum: 1, maximum: 100_000 },
    minCalls: { type: 'number', minimum: 0, maximum: 1000 },
    weight: { type: 'number', minimum: 0, maximum: 10 },
  },
} as const;

export const PLUGIN_NAME = '@tool-search/plugin-learning';

/** Checks the JSON part of the options; throws a `ConfigError` (`OPTIONS_INVALID`) naming the path and the rule. */
export function parseLearningOptions(options: unknown): LearningOptions {
  if (options === null || typeof options !== 'object') throw invalid('(root)', 'type', 'must be an object');
  const { state, now, refreshMs, ...settings } = options as LearningOptions;
  const [first] = valueIssues(learningSettingsSchema, settings);
  if (first) throw invalid(first.path.split('/').filter(Boolean).join('.') || '(root)', first.rule, first.message);
  if (state !== undefined && (typeof state !== 'object' || typeof state.append !== 'function'))
    throw invalid('state', 'type', 'must be a StateStore');
  if (now !== undefined && typeof now !== 'function') throw invalid('now', 'type', 'must be a function');
  if (refreshMs !== undefined && !(Number.isInteger(refreshMs) && refreshMs >= 0))
    throw invalid('refreshMs', 'minimum', 'must be an integer ≥ 0');
  return options as LearningOptions;
}

function invalid(path: string, rule: string, message: string): ConfigError {
  return new ConfigError(path, rule, `${PLUGIN_NAME} options are invalid at ${path}: ${message}`, {
    code: ErrorCode.OPTIONS_INVALID,
    plugin: PLUGIN_NAME,
  });
}
