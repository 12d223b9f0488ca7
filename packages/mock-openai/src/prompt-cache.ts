/**
 * The provider's prompt cache, as OpenAI documents it: automatic, for prompts
 * of 1,024 tokens or more, hits counted from the start of the prompt in
 * 128-token increments, reported as `usage.prompt_tokens_details.cached_tokens`
 * (Responses: `usage.input_tokens_details.cached_tokens`). The prompt is the
 * request rendered in cache order (tools and instructions, then the messages or
 * input items); its longest common start with a recent prompt this server saw
 * is what is cached. Tokens are characters / 4, like the rest of the mock's usage.
 * Memory is bounded: the newest prompts up to `maxChars` in all.
 */

export interface PromptCacheOptions {
  /** Shortest cacheable prompt, in tokens (default 1,024). */
  readonly minTokens?: number;
  /** Hits come in multiples of this many tokens (default 128). */
  readonly increment?: number;
  /** Characters of recent prompts kept to compare with (default 8,000,000). */
  readonly maxChars?: number;
}

export interface PromptCache {
  /** Tokens of `prompt` found in the cache (at most `promptTokens`); then `prompt` is cached too. */
  cachedTokens(prompt: string, promptTokens: number): number;
}

export function createPromptCache(options: PromptCacheOptions = {}): PromptCache {
  const { minTokens = 1024, increment = 128, maxChars = 8_000_000 } = options;
  const kept: string[] = [];
  let chars = 0;
  const remember = (prompt: string) => {
    kept.push(prompt);
    chars += prompt.length;
    while (chars > maxChars && kept.length > 0) chars -= kept.shift()!.length;
  };
  return {
    cachedTokens(prompt, promptTokens) {
      let longest = 0;
      for (const earlier of kept) longest = Math.max(longest, commonPrefix(earlier, prompt));
      remember(prompt);
      const tokens = Math.floor(longest / 4);
      if (tokens < minTokens) return 0;
      return Math.min(promptTokens, Math.floor(tokens / increment) * increment);
    },
  };
}

/** A request in cache order: the tools and instructions first, then each message or input item. */
export function promptOf(body: {
  readonly tools?: unknown;
  readonly instructions?: unknown;
  readonly messages?: unknown;
  readonly input?: unknown;
}): string {
  const items = body.messages ?? body.input;
  const head = JSON.stringify(body.tools ?? []) + JSON.stringify(body.instructions ?? '');
  return head + (Array.isArray(items) ? items.map((item) => JSON.stringify(item)).join('') : JSON.stringify(items));
}

/** Length of the common start of two strings. */
export function commonPrefix(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let i = 0;
  while (i < end && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
