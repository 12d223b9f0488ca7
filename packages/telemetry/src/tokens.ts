/**
 * Token counting with a real tokenizer (`gpt-tokenizer`, `o200k_base`). The BPE
 * ranks are megabytes of JavaScript, so they load on the first count, once per
 * process, and never when nothing is counted.
 *
 * Byte-pair merging is quadratic in the length of one pre-token, and a
 * pre-token is a whole run of letters, punctuation or whitespace: one
 * 20,000-character word would block the event loop for seconds. Runs longer
 * than `MAX_RUN` are therefore counted in `MAX_RUN`-sized pieces, which makes
 * counting linear in the text's length; ordinary text has no such runs and is
 * counted exactly, and a cut run is off by at most one token per cut.
 */
export type TokenizerName = 'o200k_base';

export interface TokenCounter {
  readonly name: TokenizerName;
  count(text: string): Promise<number>;
}

type CountTokens = (text: string) => number;

/** Longest run of one character class counted in one piece. */
export const MAX_RUN = 256;
const CACHE_SIZE = 32;
let loading: Promise<CountTokens> | undefined;

export function createTokenCounter(name: TokenizerName): TokenCounter {
  const cache = new Map<string, number>();
  return {
    name,
    async count(text) {
      if (!text) return 0;
      const cached = cache.get(text);
      if (cached !== undefined) return cached;
      loading ??= loadO200k();
      const count = countInPieces(await loading, text);
      cache.set(text, count);
      if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      return count;
    },
  };
}

/**
 * Loads the tokenizer now. Compiling its ranks takes about a second of main-thread time (more on a loaded machine), so
 * a server calls this before it listens; otherwise the first request to be counted pays it and stalls everyone.
 */
export async function preloadTokenizer(_name: TokenizerName = 'o200k_base'): Promise<void> {
  loading ??= loadO200k();
  await loading;
}

/** Counts `text`, cutting it inside any run of one class (whitespace or not) that reaches `MAX_RUN`. */
export function countInPieces(countTokens: CountTokens, text: string): number {
  let total = 0;
  let start = 0;
  let run = 0;
  let runIsSpace = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (space !== runIsSpace) {
      runIsSpace = space;
      run = 0;
    }
    if (++run >= MAX_RUN) {
      total += countTokens(text.slice(start, i + 1));
      start = i + 1;
      run = 0;
    }
  }
  return start === 0 ? countTokens(text) : total + countTokens(text.slice(start));
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9 || code === 12 || code === 11 || code === 0xa0;
}

async function loadO200k(): Promise<CountTokens> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  // Special-token text such as `<|endoftext|>` is counted as plain text, not rejected.
  return (text) => countTokens(text, { allowedSpecial: new Set(), disallowedSpecial: new Set() });
}
