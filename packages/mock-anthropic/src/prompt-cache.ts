/**
 * The provider's prompt cache, as Anthropic documents it: prefixes in the order
 * tools, system, messages; hits end on a content-block boundary; nothing is
 * cached under the model's minimum (1,024 tokens for Sonnet and Opus); usage
 * says `cache_read_input_tokens` (served from the cache),
 * `cache_creation_input_tokens` (written) and `input_tokens` (the rest), the
 * three summing to the prompt. The API caches only when asked (`cache_control`
 * on the request or a block): `mode: 'automatic'` caches every request as if
 * the request-level `cache_control` were set (breakpoint on the last block).
 * More than 4 breakpoints is a 400, as on the API (server.ts); the marks are
 * not part of the compared prompt. The prompt's blocks are looked up among the recent prompts this server saw;
 * tokens are characters / 4, like the rest of the mock's usage. Memory is
 * bounded: the blocks of the newest prompts, up to `maxChars` in all.
 */

import { createHash } from 'node:crypto';
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
  // Each prompt is kept as a chain of block hashes (each chained to the ones before it) with the characters up to it:
  // a lookup walks the new prompt's chain until the first unknown link instead of comparing it with every recent
  // prompt (that made the mock the bottleneck of a load test). The oldest links go first past `maxChars`.
  const known = new Map<string, number>();
  let chars = 0;
  const remember = (link: string, size: number) => {
    if (known.has(link)) known.delete(link);
    else chars += size;
    known.set(link, size);
    for (const [oldest, oldSize] of known) {
      if (chars <= maxChars) break;
      known.delete(oldest);
      chars -= oldSize;
    }
  };
  return {
    usage(body, _raw, promptTokens) {
      if (mode === 'requested' && cacheBreakpoints(body) === 0)
        return { input_tokens: promptTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      let link = '';
      let longest = 0;
      let missed = false;
      for (const block of blocksOf(body)) {
        link = createHash('sha256').update(link).update(block).digest('base64');
        if (!missed && known.has(link)) longest += block.length;
        else missed = true;
        remember(link, block.length);
      }
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

/** The API's limit on `cache_control` breakpoints in one request, the request-level one included. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** The request's `cache_control` breakpoints: request-level, on tools, system blocks, message blocks and their parts. */
export function cacheBreakpoints(body: MessagesRequest): number {
  const marked = (value: unknown) =>
    typeof value === 'object' && value !== null && (value as { cache_control?: unknown }).cache_control != null ? 1 : 0;
  const inBlocks = (content: unknown): number =>
    Array.isArray(content)
      ? content.reduce<number>(
          (sum, block) => sum + marked(block) + inBlocks((block as { content?: unknown })?.content),
          0,
        )
      : 0;
  return (
    marked(body) +
    inBlocks(body.tools) +
    inBlocks(body.system) +
    body.messages.reduce((sum, message) => sum + inBlocks(message.content), 0)
  );
}

/**
 * The request's cacheable blocks in cache order: the tools that are not deferred, the system text, then each
 * message's content blocks.
 * Without their `cache_control`: a breakpoint says where to cache, it is not part of the prompt (moving the mark to
 * the newest block each turn still reads the earlier prefix).
 */
export function blocksOf(body: MessagesRequest): string[] {
  // Each tool is a block; a deferred one is not in the prefix (tool search adds it inline when found).
  const tools = (body.tools ?? []).filter((tool) => tool.defer_loading !== true);
  const blocks = [...tools.map((tool) => JSON.stringify(tool, unmarked)), JSON.stringify(body.system ?? '', unmarked)];
  for (const message of body.messages) {
    const content = typeof message.content === 'string' ? [message.content] : message.content;
    content.forEach((block, index) => blocks.push(JSON.stringify([message.role, index, block], unmarked)));
  }
  return blocks;
}

function unmarked(key: string, value: unknown): unknown {
  return key === 'cache_control' ? undefined : value;
}
