/**
 * `queryTerms`: the words a query is ranked by, as the ranker reads them (lowercased, phrasal verbs as their one-word
 * meaning, identifiers split, stopwords and bare numbers dropped, Porter-stemmed), each once, in order. For plugins
 * that key something on a query's words (`@tool-search/plugin-learning`) so they see the words the ranker sees.
 */
import { plainVerbs } from './phrasal.js';
import { terms } from './tokenize.js';

export function queryTerms(query: string, max = 32): string[] {
  if (typeof query !== 'string') return [];
  return [...new Set(terms(plainVerbs(query.slice(0, 500).toLowerCase())))].slice(0, max);
}
