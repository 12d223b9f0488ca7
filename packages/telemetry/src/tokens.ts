/**
 * Token counting with a real tokenizer (js-tiktoken, `o200k_base`). The BPE
 * ranks are megabytes of JavaScript, so they load on the first count, once per
 * process, and never when nothing is counted. Encoding is about 0.5 ms per KB
 * on the main thread, so recent texts are cached: the tools array of a run is
 * the same string on every request and is counted once.
 */
export type TokenizerName = 'o200k_base';

export interface TokenCounter {
  readonly name: TokenizerName;
  count(text: string): Promise<number>;
}

interface Encoder {
  encode(text: string, allowedSpecial?: string[] | 'all', disallowedSpecial?: string[] | 'all'): number[];
}

const CACHE_SIZE = 32;
let loading: Promise<Encoder> | undefined;

export function createTokenCounter(name: TokenizerName): TokenCounter {
  const cache = new Map<string, number>();
  return {
    name,
    async count(text) {
      if (!text) return 0;
      const cached = cache.get(text);
      if (cached !== undefined) return cached;
      loading ??= loadO200k();
      // No special tokens: a body that contains `<|endoftext|>` is counted as text, not rejected.
      const count = (await loading).encode(text, [], []).length;
      cache.set(text, count);
      if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      return count;
    },
  };
}

async function loadO200k(): Promise<Encoder> {
  const [{ Tiktoken }, ranks] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/o200k_base')]);
  return new Tiktoken(ranks.default);
}
