/**
 * Builds the upstream from `provider: { kind, baseURL, apiKey | apiKeyEnv, model, promptCache? }`:
 * `openai` (default) on the official `openai` client, `anthropic` on the
 * official `@anthropic-ai/sdk`. Retries are off: a failure reaches the caller
 * at once, named with the provider URL and status.
 */
import { createRequire } from 'node:module';
import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import { ConfigError } from '@tool-search/kernel';
import { anthropicUpstream } from './anthropic-upstream.js';
import { openaiUpstream } from './openai-upstream.js';
import { openaiResponsesUpstream } from './openai-responses-upstream.js';
import type { Upstream, UpstreamKind } from './upstream.js';

export interface ProviderConfig {
  /** Wire format of the provider: `openai` (Chat Completions, default) or `anthropic` (Messages). */
  readonly kind?: UpstreamKind;
  readonly baseURL?: string;
  readonly apiKey?: string;
  /** Name of the environment variable that holds the key (preferred over `apiKey` in files). */
  readonly apiKeyEnv?: string;
  readonly model?: string;
  /** OpenAI only: `chat` (Chat Completions, default) or `responses` (the Responses API, which programmatic tool calling needs). */
  readonly api?: 'chat' | 'responses';
  /** Anthropic only: prompt caching (`cache_control` breakpoints, cache-breakpoints.ts); default on, `false` sends none. */
  readonly promptCache?: boolean;
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
  if (kind === 'anthropic') {
    const { Anthropic: AnthropicClient } = sdk<{ Anthropic: typeof Anthropic }>('@anthropic-ai/sdk');
    return anthropicUpstream(new AnthropicClient({ apiKey, ...baseURL, maxRetries: 0 }), config.model, {
      promptCache: config.promptCache !== false,
    });
  }
  const { OpenAI: OpenAIClient } = sdk<{ OpenAI: typeof OpenAI }>('openai');
  const client = new OpenAIClient({ apiKey, ...baseURL, maxRetries: 0 });
  return config.api === 'responses'
    ? openaiResponsesUpstream(client, config.model)
    : openaiUpstream(client, config.model);
}

// Each SDK is hundreds of files (Anthropic's 272, 1.5 MB): only the provider's own loads, when it is built. Required
// (both ship CommonJS builds) so `createUpstream` stays synchronous; the upstreams use only the instance.
const require = createRequire(import.meta.url);
function sdk<T>(name: string): T {
  return require(name) as T;
}
