/**
 * The provider's prompt cache, as Anthropic documents it: prefixes in the order
 * tools, system, messages; hits end on a content-block boundary; nothing is
 * cached under the model's minimum (1,024 tokens for Sonnet and Opus); usage
 * says `cache_read_input_tokens` (served from the cache),
 * `cache_creation_input_tokens` (written) and `input_tokens` (the rest), the
 * three summing to the prompt. The API caches only when asked (`cache_control`
 * on the request or a block): `mode: 'automatic'` caches every request as if
 * the request-level `cache_control` were set (breakpoint on the last block).
 * The prompt's blocks are compared with the recent prompts this server saw;
 * tokens are characters / 4, like the rest of the mock's usage. Memory is
 * bounded: the newest prompts up to `maxChars` in all.
 */
import type { MessagesRequest } from './types.js';

export interface AnthropicPromptCacheOptions {
  /** `requested` (default): only requests with `cache_control`; `automatic`: every request. */
  readonly mode?: 'requested' | 'automatic';
  /** Shortest cacheable prompt, in tokens (default 1,024). */
  readonly minTokens?: number;
  /** Characters of recent prompts kept to compare with (default 8,000,000). */
  readonly maxChars?: number;
}

export interface CacheUsage {
  readonly input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
}

export interface AnthropicPromptCache {
  /** The prompt tokens of this request split as the API reports them; a cached request is remembered. */
  usage(body: MessagesRequest, raw: string, promptTokens: number): CacheUsage;
}

export function createAnthropicPromptCache(options: AnthropicPromptCacheOptions = {}): AnthropicPromptCache {
  const { mode = 'requested', minTokens = 1024, maxChars = 8_000_000 } = options;
  const kept: { blocks: string[]; chars: number }[] = [];
  let chars = 0;
  const remember = (blocks: string[]) => {
    const size = blocks.reduce((sum, block) => sum + block.length, 0);
    kept.push({ blocks, chars: size });
    chars += size;
    while (chars > maxChars && kept.length > 0) chars -= kept.shift()!.chars;
  };
  return {
    usage(body, raw, promptTokens) {
      if (mode === 'requested' && !raw.includes('"cache_control"'))
        return { input_tokens: promptTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      const blocks = blocksOf(body);
      let longest = 0;
      for (const earlier of kept) longest = Math.max(longest, sharedChars(earlier.blocks, blocks));
      remember(blocks);
      const readTokens = Math.min(promptTokens, Math.floor(longest / 4));
      const read = readTokens >= minTokens ? readTokens : 0;
      // The breakpoint is the last block: what was not read is written, when the prompt is long enough to cache.
      const written = promptTokens >= minTokens ? promptTokens - read : 0;
      return {
        input_tokens: promptTokens - read - written,
        cache_creation_input_tokens: written,
        cache_read_input_tokens: read,
      };
    },
  };
}

/** The request's cacheable blocks in cache order: the tools, the system text, then each message's content blocks. */
export function blocksOf(body: MessagesRequest): string[] {
  const blocks = [JSON.stringify(body.tools ?? []), JSON.stringify(body.system ?? '')];
  for (const message of body.messages) {
    const content = typeof message.content === 'string' ? [message.content] : message.content;
    content.forEach((block, index) => blocks.push(JSON.stringify([message.role, index, block])));
  }
  return blocks;
}

/** Characters of the whole blocks two prompts share from their start. */
function sharedChars(a: readonly string[], b: readonly string[]): number {
  let shared = 0;
  for (let i = 0; i < Math.min(a.length, b.length) && a[i] === b[i]; i++) shared += a[i]!.length;
  return shared;
}
