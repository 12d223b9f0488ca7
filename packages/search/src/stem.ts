/**
 * Porter stemming (the `stemmer` package), cached: tool text repeats the same
 * few thousand words, so the cache turns most calls into one map lookup.
 */
import { stemmer } from 'stemmer';
import { unabbreviate } from './abbreviations.js';

const cache = new Map<string, string>();
const CACHE_MAX = 50_000;

export function stem(word: string): string {
  let stemmed = cache.get(word);
  if (stemmed === undefined) {
    stemmed = word.length > 40 ? word : stemmer(unabbreviate(word));
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(word, stemmed);
  }
  return stemmed;
}
