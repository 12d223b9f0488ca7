/**
 * Naming a tool finds it: a query that is a tool's name, id or title, or a close variant of one, is answered by
 * that tool first. Variants: case and separators ("Create Issue", "create-issue", "createIssue" all read as
 * `createissue`), a server prefix ("github.create_issue", "github/create_issue", "mcp__github__create_issue": the
 * prefix must name the tool's server or source), and a typo (Damerau–Levenshtein distance 1 for names of 5–7
 * letters, 2 from 8; only for queries of at most four words, so a sentence never turns into a name).
 *
 * Keys live as hashes in typed arrays (no string per tool); a typo is looked for among the tools the ranker finds for
 * the query's words and word prefixes, with a banded comparison that stops as soon as the distance is exceeded.
 */
import type { ToolDescriptor } from '@tool-search/kernel';
import type { Visibility } from './ranker.js';

export interface NameMatcher {
  /**
   * The docs the query names (best first: an id, else a name or title variant, else the closest typo among
   * `candidates()`), visible ones only.
   */
  find(query: string, visible: Visibility, candidates: () => Iterable<number>): number[];
}

/** Case- and separator-blind form of a name: letters and digits only, lowercased. */
export function normalizeName(text: string): string {
  return text.toLowerCase().replace(NOT_NAME_CHARS, '');
}

/**
 * Ids (lowercased), names and titles (normalized) in one open-addressing table of 32-bit hashes: two typed arrays,
 * no string kept per tool (a hit is checked against the tool itself), so naming costs ~4 bytes a key at 100,000 tools.
 */
export function createNameMatcher(
  tools: readonly ToolDescriptor[],
  byId: (a: number, b: number) => number,
): NameMatcher {
  const keyOf = (doc: number, kind: number): string => {
    const tool = tools[doc]!;
    return kind === ID ? tool.id.toLowerCase() : normalizeName(kind === NAME ? tool.name : (tool.title ?? ''));
  };
  let entries = 0;
  for (const tool of tools) entries += tool.title ? 3 : 2;
  const size = 1 << Math.ceil(Math.log2(Math.max(entries * 1.4, 16)));
  const hashes = new Int32Array(size);
  // (doc * 4 + kind) + 1 per slot; 0 = empty.
  const slots = new Int32Array(size);
  const insert = (key: string, doc: number, kind: number): void => {
    if (key.length === 0) return;
    const hash = hashOf(key);
    let at = hash & (size - 1);
    while (slots[at] !== 0) at = (at + 1) & (size - 1);
    hashes[at] = hash;
    slots[at] = doc * 4 + kind + 1;
  };
  tools.forEach((tool, doc) => {
    insert(tool.id.toLowerCase(), doc, ID);
    insert(normalizeName(tool.name), doc, NAME);
    if (tool.title) insert(normalizeName(tool.title), doc, TITLE);
  });
  /** The docs whose key of `kind` is `key`. */
  const lookup = (key: string, kind: number): number[] => {
    const out: number[] = [];
    if (key.length === 0) return out;
    const hash = hashOf(key);
    for (let at = hash & (size - 1); slots[at] !== 0; at = (at + 1) & (size - 1)) {
      if (hashes[at] !== hash) continue;
      const value = slots[at]! - 1;
      const doc = value >> 2;
      if ((value & 3) === kind && !out.includes(doc) && keyOf(doc, kind) === key) out.push(doc);
    }
    return out;
  };

  /** Whether `prefix` (normalized) names the server or source of `doc`: "github", "mcpgithub", "mcp__github". */
  const prefixFits = (prefix: string, doc: number): boolean => {
    const tool = tools[doc]!;
    const owner = normalizeName(tool.owner);
    const source = normalizeName(tool.source);
    const fits = (p: string): boolean =>
      p === owner || p === source || p === source + owner || (p.length >= 3 && owner.endsWith(p));
    return (
      fits(prefix) ||
      (prefix.startsWith(source) && fits(prefix.slice(source.length))) ||
      (prefix.startsWith('mcp') && fits(prefix.slice(3)))
    );
  };

  /** Readings of the query as a name: the whole of it, then each tail after a server prefix. */
  const readings = (query: string): { key: string; prefix: string }[] => {
    const trimmed = query.trim();
    if (trimmed.length === 0 || trimmed.length > MAX_NAME_QUERY) return [];
    const out = [{ key: normalizeName(trimmed), prefix: '' }];
    const parts = trimmed.split(PREFIX_SEPARATORS).filter(Boolean);
    for (let i = 1; i < parts.length && i <= 3; i++)
      out.push({ key: normalizeName(parts.slice(i).join('')), prefix: normalizeName(parts.slice(0, i).join('')) });
    return out.filter((reading) => reading.key.length > 0);
  };

  // Docs ordered by normalized name, made on the first typo lookup: a misspelt name's neighbours in that order.
  let sorted: Int32Array | undefined;
  const byPrefix = (key: string): number[] => {
    if (!sorted) {
      const keys = tools.map((tool) => normalizeName(tool.name));
      sorted = Int32Array.from(keys.keys()).sort((a, b) =>
        keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b,
      );
    }
    const order = sorted;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (normalizeName(tools[order[mid]!]!.name) < key) lo = mid + 1;
      else hi = mid;
    }
    return Array.from(order.subarray(Math.max(0, lo - NEIGHBOURS), lo + NEIGHBOURS));
  };

  return {
    find(query, visible, candidates) {
      const shown = (doc: number): boolean => !visible || visible[doc] === 1;
      const byIdKey = lookup(query.trim().toLowerCase(), ID).filter(shown);
      if (byIdKey.length > 0) return byIdKey.sort(byId);
      const all = readings(query);
      for (const kind of [NAME, TITLE]) {
        for (const { key, prefix } of all) {
          const docs = lookup(key, kind).filter((doc) => shown(doc) && (prefix === '' || prefixFits(prefix, doc)));
          if (docs.length > 0) return docs.sort(byId);
        }
      }
      if (all.length === 0 || query.trim().split(/\s+/).length > MAX_TYPO_WORDS) return [];
      // A typo: the closest name (then title) among the tools that share a word or a word's prefix with the query.
      let best = Infinity;
      let found: number[] = [];
      const pool = new Set(candidates());
      for (const { key } of all) for (const doc of byPrefix(key)) pool.add(doc);
      for (const kind of [NAME, TITLE]) {
        for (const doc of pool) {
          if (!shown(doc)) continue;
          const candidate = keyOf(doc, kind);
          if (candidate.length === 0) continue;
          for (const { key, prefix } of all) {
            const bound = Math.min(allowedTypos(key.length), best);
            if (bound === 0 || Math.abs(candidate.length - key.length) > bound) continue;
            const distance = boundedDistance(key, candidate, bound);
            if (distance > bound || (prefix !== '' && !prefixFits(prefix, doc))) continue;
            if (distance < best) [best, found] = [distance, [doc]];
            else if (!found.includes(doc)) found.push(doc);
          }
        }
        if (found.length > 0) break;
      }
      return found.sort(byId);
    },
  };
}

/** A misspelt name is also compared with this many names on either side of it in sorted order. */
const NEIGHBOURS = 150;

const ID = 0;
const NAME = 1;
const TITLE = 2;

/** FNV-1a over UTF-16 code units. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** Queries longer than this are never read as a name. */
const MAX_NAME_QUERY = 120;
/** A typo is looked for only in queries of at most this many words. */
const MAX_TYPO_WORDS = 4;
const NOT_NAME_CHARS = /[^\p{L}\p{N}]+/gu;
/** What separates a server prefix from a tool name: `.`, `/`, `:`, `__`, or a space. */
const PREFIX_SEPARATORS = /[.:/\s]+|__+/;

/** Typos tolerated in a name of `length` normalized characters. */
function allowedTypos(length: number): number {
  return length >= 8 ? 2 : length >= 5 ? 1 : 0;
}

/**
 * Optimal string alignment distance (Damerau–Levenshtein with adjacent transpositions), computed in a band of
 * width `max` around the diagonal; returns `max + 1` as soon as every cell of a row exceeds `max`.
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length;
  if (rows[0]!.length < n + 1)
    rows = [0, 1, 2].map(() => new Int32Array(2 * (n + 1))) as [Int32Array, Int32Array, Int32Array];
  let [prevPrev, prev, row] = rows;
  for (let j = 0; j <= n; j++) prev[j] = j <= max ? j : max + 1;
  for (let i = 1; i <= a.length; i++) {
    row.fill(max + 1, 0, n + 1);
    if (i <= max) row[0] = i;
    let rowMin = row[0]!;
    const from = Math.max(1, i - max);
    const to = Math.min(n, i + max);
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        value = Math.min(value, prevPrev[j - 2]! + 1);
      row[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [prevPrev, prev, row] = [prev, row, prevPrev];
  }
  return Math.min(prev[n]!, max + 1);
}

/** Reused rows of `boundedDistance` (grown on demand): a typo scan allocates nothing per candidate. */
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];
