/**
 * The provider's prompt cache, as OpenAI documents it: automatic, for prompts
 * of 1,024 tokens or more, hits counted from the start of the prompt in
 * 128-token increments, reported as `usage.prompt_tokens_details.cached_tokens`
 * (Responses: `usage.input_tokens_details.cached_tokens`). The prompt is the
 * request rendered in cache order (tools and instructions, then the messages or
 * input items); its longest common start with a recent prompt this server saw
 * is what is cached. Tokens are characters / 4, like the rest of the mock's usage.
 * Memory is bounded: the blocks of the newest prompts, up to `maxChars` of them in all.
 */

import { createHash } from 'node:crypto';

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
  // Hits come in whole increments, so a prompt is cached as a chain of increment-sized blocks (4 characters a
  // token): the hash of each block chained to the ones before it. A lookup walks the new prompt's chain until the
  // first unknown link, one hash per block, instead of comparing it with every recent prompt (that made the mock the
  // bottleneck of a load test). The same answer as the longest common start, rounded down to an increment.
  const blockChars = increment * 4;
  const known = new Set<string>();
  const maxBlocks = Math.max(1, Math.floor(maxChars / blockChars));
  const remember = (link: string) => {
    known.delete(link); // newest last: the oldest links are dropped first
    known.add(link);
    if (known.size > maxBlocks) known.delete(known.values().next().value as string);
  };
  return {
    cachedTokens(prompt, promptTokens) {
      let link = '';
      let hits = 0;
      let missed = false;
      for (let start = 0; start + blockChars <= prompt.length; start += blockChars) {
        link = createHash('sha256')
          .update(link)
          .update(prompt.slice(start, start + blockChars))
          .digest('base64');
        if (!missed && known.has(link)) hits++;
        else missed = true;
        remember(link);
      }
      const tokens = hits * increment;
      if (tokens < minTokens) return 0;
      return Math.min(promptTokens, tokens);
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
