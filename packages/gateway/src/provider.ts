/**
 * Builds the upstream from `provider: { kind, baseURL, apiKey | apiKeyEnv, model }`:
 * `openai` (default) on the official `openai` client, `anthropic` on the
 * official `@anthropic-ai/sdk`. Retries are off: a failure reaches the caller
 * at once, named with the provider URL and status.
 */
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { ConfigError } from '@tool-search/kernel';
import { anthropicUpstream } from './anthropic-upstream.js';
import { openaiUpstream } from './openai-upstream.js';
import type { Upstream, UpstreamKind } from './upstream.js';

export interface ProviderConfig {
  /** Wire format of the provider: `openai` (Chat Completions, default) or `anthropic` (Messages). */
  readonly kind?: UpstreamKind;
  readonly baseURL?: string;
  readonly apiKey?: string;
  /** Name of the environment variable that holds the key (preferred over `apiKey` in files). */
  readonly apiKeyEnv?: string;
  readonly model?: string;
}

const DEFAULT_KEY_ENV: Record<UpstreamKind, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

export function createUpstream(config: ProviderConfig, env: NodeJS.ProcessEnv = process.env): Upstream {
  const kind = config.kind ?? 'openai';
  const keyEnv = config.apiKeyEnv ?? DEFAULT_KEY_ENV[kind];
  const apiKey = config.apiKey ?? env[keyEnv];
  if (!apiKey)
    throw new ConfigError(
      '/provider/apiKeyEnv',
      'required',
      `No API key: set ${keyEnv} or use --provider-mode mock-${kind}`,
    );
  if (!config.model) throw new ConfigError('/provider/model', 'required', 'provider.model is required');
  const baseURL = config.baseURL ? { baseURL: config.baseURL } : {};
  if (kind === 'anthropic')
    return anthropicUpstream(new Anthropic({ apiKey, ...baseURL, maxRetries: 0 }), config.model);
  return openaiUpstream(new OpenAI({ apiKey, ...baseURL, maxRetries: 0 }), config.model);
}
