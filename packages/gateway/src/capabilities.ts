/**
 * Who supports what: per provider kind and model, whether the upstream takes
 * Anthropic's deferred tools (`defer_loading` + the tool-search server tools)
 * itself. Rules are tried in order, the first match wins; the gateway option
 * `capabilities` puts its rules ahead of these defaults.
 */
import type { UpstreamKind } from './upstream.js';

export interface CapabilityRule {
  readonly provider: UpstreamKind;
  /** A model name, or a prefix ending in `*`; absent matches every model. */
  readonly model?: string;
  readonly deferredTools: boolean;
}

/** Anthropic documents tool search for Claude Opus/Sonnet 4.5 and later; the mock implements it. */
export const DEFAULT_CAPABILITIES: readonly CapabilityRule[] = [
  { provider: 'anthropic', model: 'claude-opus-4-5*', deferredTools: true },
  { provider: 'anthropic', model: 'claude-sonnet-4-5*', deferredTools: true },
  { provider: 'anthropic', model: 'claude-haiku-4-5*', deferredTools: true },
  { provider: 'anthropic', model: 'claude-opus-4-6*', deferredTools: true },
  { provider: 'anthropic', model: 'claude-sonnet-4-6*', deferredTools: true },
  { provider: 'anthropic', model: 'claude-opus-5*', deferredTools: true },
  { provider: 'anthropic', model: 'claude-sonnet-5*', deferredTools: true },
  { provider: 'anthropic', model: 'mock-claude*', deferredTools: true },
  { provider: 'anthropic', deferredTools: false },
  { provider: 'openai', deferredTools: false },
];

export function supportsDeferredTools(provider: UpstreamKind, model: string, overrides: readonly CapabilityRule[] = []): boolean {
  const rule = [...overrides, ...DEFAULT_CAPABILITIES].find((r) => r.provider === provider && matches(r.model, model));
  return rule?.deferredTools ?? false;
}

function matches(pattern: string | undefined, model: string): boolean {
  if (pattern === undefined) return true;
  return pattern.endsWith('*') ? model.startsWith(pattern.slice(0, -1)) : model === pattern;
}
