/**
 * Common abbreviations of software vocabulary, folded into the word they
 * stand for before stemming, on both the index and the query side: "repo",
 * "db" and "k8s" then are the same term as "repository", "database" and
 * "kubernetes" at full weight (a synonym only gets a fraction). Only
 * unambiguous one-word abbreviations; general vocabulary, not fitted to any
 * query set.
 */
const PAIRS =
  'repo:repository repos:repositories db:database dbs:databases msg:message msgs:messages dir:directory ' +
  'dirs:directories env:environment envs:environments img:image imgs:images pic:picture pics:pictures ' +
  'pg:postgres postgresql:postgres ' +
  'mongo:mongodb gh:github';

const TABLE: ReadonlyMap<string, string> = new Map(PAIRS.split(' ').map((pair) => pair.split(':') as [string, string]));

/** The full word for a lowercased abbreviation, else the word itself. */
export function unabbreviate(word: string): string {
  return TABLE.get(word) ?? word;
}
