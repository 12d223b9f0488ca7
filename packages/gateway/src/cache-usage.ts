/**
 * Provider usage → the gateway's: `input` is every prompt token (cached ones
 * included, as OpenAI counts them), `cached` the prompt tokens served from the
 * provider's prompt cache and, on Anthropic, `cacheWrite` those written to it;
 * each only when the provider said. The documented fields: OpenAI Chat
 * Completions `usage.prompt_tokens_details.cached_tokens`, Responses
 * `usage.input_tokens_details.cached_tokens`, Anthropic
 * `usage.cache_read_input_tokens` and `cache_creation_input_tokens` (Anthropic's
 * `input_tokens` excludes both: the prompt is the sum of the three).
 */

export interface ProviderUsage {
  readonly input: number;
  readonly output: number;
  readonly cached?: number;
  readonly cacheWrite?: number;
}

const count = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

export function chatUsage(usage: {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly prompt_tokens_details?: { readonly cached_tokens?: number } | null;
}): ProviderUsage {
  const cached = count(usage.prompt_tokens_details?.cached_tokens);
  return { input: usage.prompt_tokens, output: usage.completion_tokens, ...(cached !== undefined ? { cached } : {}) };
}

export function responsesUsage(usage: {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly input_tokens_details?: { readonly cached_tokens?: number } | null;
}): ProviderUsage {
  const cached = count(usage.input_tokens_details?.cached_tokens);
  return {
    input: usage.input_tokens ?? 0,
    output: usage.output_tokens ?? 0,
    ...(cached !== undefined ? { cached } : {}),
  };
}

export function anthropicUsage(usage: {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly cache_read_input_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
}): ProviderUsage {
  const cached = count(usage.cache_read_input_tokens);
  const cacheWrite = count(usage.cache_creation_input_tokens);
  return {
    input: (usage.input_tokens ?? 0) + (cached ?? 0) + (cacheWrite ?? 0),
    output: usage.output_tokens ?? 0,
    ...(cached !== undefined ? { cached } : {}),
    ...(cacheWrite !== undefined ? { cacheWrite } : {}),
  };
}
