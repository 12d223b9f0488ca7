/**
 * Who supports what: per provider kind and model, which of Anthropic's deferred
 * loading features the upstream serves itself — `deferLoading` (tools sent with
 * `defer_loading: true`), `toolSearch` (the `tool_search_tool_*` server tools)
 * and `toolReference` (`tool_reference` blocks in a `tool_result`, the custom
 * search tool's and native mode's way of loading). Rules are tried in order,
 * the first match wins; the gateway option `capabilities` puts its rules ahead
 * of these defaults, and `capabilitiesFromConfig` reads the config form
 * (`gateway.capabilities: { "<provider>/<model glob>": { … } }`, schema-checked).
 * A turn then takes one path: `pass-through` (the upstream does it), `served`
 * (the gateway does it) or `fallback-tools` (native mode without support).
 * `programmatic` says the model takes programmatic tool calling (its provider's sandbox calls the tools: Anthropic
 * `allowed_callers` with the code-execution tool, OpenAI Responses `allowed_callers: ["programmatic"]`), see programmatic.ts.
 */
import { ConfigError, valueIssues, type JsonSchema } from '@tool-search/kernel';
import type { UpstreamKind } from './upstream.js';

export interface Capability {
  readonly deferLoading: boolean;
  readonly toolSearch: boolean;
  readonly toolReference: boolean;
  /** Programmatic tool calling: native mode lets the provider's sandbox call the catalog tools (programmatic.ts). */
  readonly programmatic: boolean;
}

export interface CapabilityRule {
  readonly provider: UpstreamKind;
  /** A model name, or a glob (`*` for any run of characters); absent matches every model. */
  readonly model?: string;
  /** Shorthand for all three features. */
  readonly deferredTools?: boolean;
  readonly deferLoading?: boolean;
  readonly toolSearch?: boolean;
  readonly toolReference?: boolean;
  /** Not part of the `deferredTools` shorthand: absent is false. */
  readonly programmatic?: boolean;
}

/** Which path a turn's deferred tools (or native mode) took. */
export type DeferralPath = 'pass-through' | 'served' | 'fallback-tools';

/**
 * Anthropic documents tool search for Claude Opus/Sonnet 4.5 and later (the mock implements it), and programmatic
 * tool calling (`code_execution_20250825`) for Opus/Sonnet 4.5 and later, not Haiku. The mocks speak programmatic
 * calling too, but take it only when a rule says so (`programmatic: true`), so a test chooses the form.
 */
export const DEFAULT_CAPABILITIES: readonly CapabilityRule[] = [
  { provider: 'anthropic', model: 'claude-opus-4-5*', deferredTools: true, programmatic: true },
  { provider: 'anthropic', model: 'claude-sonnet-4-5*', deferredTools: true, programmatic: true },
  { provider: 'anthropic', model: 'claude-haiku-4-5*', deferredTools: true },
  { provider: 'anthropic', model: 'claude-opus-4-6*', deferredTools: true, programmatic: true },
  { provider: 'anthropic', model: 'claude-sonnet-4-6*', deferredTools: true, programmatic: true },
  { provider: 'anthropic', model: 'claude-opus-5*', deferredTools: true, programmatic: true },
  { provider: 'anthropic', model: 'claude-sonnet-5*', deferredTools: true, programmatic: true },
  { provider: 'anthropic', model: 'mock-claude*', deferredTools: true },
  { provider: 'anthropic', deferredTools: false },
  { provider: 'openai', deferredTools: false },
];

/** What the upstream serves itself; a feature a rule leaves out is not supported. */
export function capabilityOf(
  provider: UpstreamKind,
  model: string,
  overrides: readonly CapabilityRule[] = [],
): Capability {
  const rule = [...overrides, ...DEFAULT_CAPABILITIES].find((r) => r.provider === provider && matches(r.model, model));
  const all = rule?.deferredTools ?? false;
  return {
    deferLoading: rule?.deferLoading ?? all,
    toolSearch: rule?.toolSearch ?? all,
    toolReference: rule?.toolReference ?? all,
    programmatic: rule?.programmatic ?? false,
  };
}

/** Deferred tools with the tool-search server tool pass through (the first feature set the gateway checked). */
export function supportsDeferredTools(
  provider: UpstreamKind,
  model: string,
  overrides: readonly CapabilityRule[] = [],
): boolean {
  const c = capabilityOf(provider, model, overrides);
  return c.deferLoading && c.toolSearch;
}

const FEATURE = { type: 'boolean' };
/** `gateway.capabilities`: `{ "<openai|anthropic>/<model glob>": { deferLoading?, toolSearch?, toolReference?, programmatic? } }`. */
export const CAPABILITIES_SCHEMA = {
  type: 'object',
  propertyNames: { pattern: '^(openai|anthropic)/[^\\s]{1,200}$' },
  additionalProperties: {
    type: 'object',
    properties: { deferLoading: FEATURE, toolSearch: FEATURE, toolReference: FEATURE, programmatic: FEATURE },
    additionalProperties: false,
  },
} as const;

/** The config form as rules, in the config's key order; a bad table throws `CONFIG_INVALID` naming the path. */
export function capabilitiesFromConfig(value: unknown, path = '/gateway/capabilities'): CapabilityRule[] {
  if (value === undefined) return [];
  const [issue] = valueIssues(CAPABILITIES_SCHEMA as unknown as JsonSchema, value);
  if (issue) {
    throw new ConfigError(
      `${path}${issue.path}`,
      issue.rule,
      `${path}${issue.path}: ${issue.message} (keys are "openai/<model glob>" or "anthropic/<model glob>"; values take deferLoading, toolSearch, toolReference, programmatic as booleans)`,
    );
  }
  return Object.entries(value as Record<string, Partial<Capability>>).map(([key, features]) => {
    const slash = key.indexOf('/');
    return {
      provider: key.slice(0, slash) as UpstreamKind,
      model: key.slice(slash + 1),
      deferLoading: features.deferLoading ?? false,
      toolSearch: features.toolSearch ?? false,
      toolReference: features.toolReference ?? false,
      programmatic: features.programmatic ?? false,
    };
  });
}

function matches(pattern: string | undefined, model: string): boolean {
  if (pattern === undefined || pattern === '*') return true;
  if (!pattern.includes('*')) return model === pattern;
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return regex.test(model);
}
