import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { countInPieces, createTokenCounter, MAX_RUN } from '../src/tokens.js';

const exact = (text: string) => countTokens(text, { allowedSpecial: new Set(), disallowedSpecial: new Set() });

/** The longest run of one class (whitespace or not) in a piece handed to the tokenizer. */
function longestRun(text: string): number {
  let best = 0;
  for (const match of text.matchAll(/\s+|\S+/g)) best = Math.max(best, match[0].length);
  return best;
}

describe('token counting', () => {
  it('counts ordinary text exactly, in one piece', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.\n'.repeat(500) + '<|im_start|>system';
    const pieces: string[] = [];
    expect(countInPieces((t) => (pieces.push(t), exact(t)), text)).toBe(exact(text));
    expect(pieces).toEqual([text]);
    expect(await createTokenCounter('o200k_base').count(text)).toBe(exact(text));
  });

  it.each([
    ['letters', 'a'.repeat(20_000)],
    ['punctuation', '!'.repeat(20_000)],
    ['whitespace', ' '.repeat(20_000) + 'x'],
    ['accented letters', 'é'.repeat(20_000)],
    ['mixed word', 'ab1'.repeat(7_000)],
  ])('never hands the tokenizer a run longer than %s of MAX_RUN (%#)', (_name, text) => {
    const pieces: string[] = [];
    const counted = countInPieces((t) => (pieces.push(t), exact(t)), text);
    expect(Math.max(...pieces.map(longestRun))).toBeLessThanOrEqual(MAX_RUN);
    expect(pieces.join('')).toBe(text);
    // Each cut changes the count by at most one token either way.
    const reference = exact(text.slice(0, 4_000)) * (text.length / 4_000);
    expect(Math.abs(counted - reference)).toBeLessThanOrEqual(pieces.length + 1);
  });

  it('counts a 200,000-character word', async () => {
    expect(await createTokenCounter('o200k_base').count('z'.repeat(200_000))).toBeGreaterThan(10_000);
  });
});
