/**
 * Naming a tool finds it: a query that is a tool's name, id or title, or a close variant of one, is answered by
 * that tool first. Variants: case and separators ("Create Issue", "create-issue", "createIssue" all read as
 * `createissue`), a server prefix ("github.create_issue", "github/create_issue", "mcp__github__create_issue": the
 * prefix must name the tool's server or source), and a typo (Damerau–Levenshtein distance 1 for names of 5–7
 * letters, 2 from 8; only for queries of at most four words, so a sentence never turns into a name).
 *
 * One map of normalized keys (name, and title when it differs) per index; the typo scan walks only the keys whose
 * length is within the distance, with a banded comparison that stops as soon as the distance is exceeded.
 */
import type { ToolDescriptor } from '@tool-search/kernel';
import type { Visibility } from './ranker.js';

export interface NameMatcher {
  /** The docs the query names (best first: exact variants, else the closest typo), visible ones only. */
  find(query: string, visible: Visibility): number[];
}

/** Case- and separator-blind form of a name: letters and digits only, lowercased. */
export function normalizeName(text: string): string {
  return text.toLowerCase().replace(NOT_NAME_CHARS, '');
}

export function createNameMatcher(tools: readonly ToolDescriptor[]): NameMatcher {
  // Names first, titles second: a query that is one tool's name and another's title finds the named tool.
  const byName = new Map<string, number | number[]>();
  const byTitle = new Map<string, number | number[]>();
  const add = (map: Map<string, number | number[]>, key: string, doc: number): void => {
    if (key.length === 0) return;
    const found = map.get(key);
    if (found === undefined) map.set(key, doc);
    else if (typeof found === 'number') {
      if (found !== doc) map.set(key, [found, doc]);
    } else if (!found.includes(doc)) found.push(doc);
  };
  tools.forEach((tool, doc) => {
    const name = normalizeName(tool.name);
    add(byName, name, doc);
    if (tool.title) {
      const title = normalizeName(tool.title);
      if (title !== name) add(byTitle, title, doc);
    }
  });
  const docsOf = (key: string): readonly number[] => {
    const found = byName.get(key) ?? byTitle.get(key);
    return found === undefined ? [] : typeof found === 'number' ? [found] : found;
  };
  const ids = tools.map((tool) => tool.id);
  const byId = (a: number, b: number): number => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0);

  /** Whether `prefix` (normalized) names the server or source of `doc`: "github", "mcpgithub", "mcp__github". */
  const prefixFits = (prefix: string, doc: number): boolean => {
    const tool = tools[doc]!;
    const owner = normalizeName(tool.owner);
    const source = normalizeName(tool.source);
    const fits = (p: string): boolean => p === owner || p === source || p === source + owner || (p.length >= 3 && owner.endsWith(p));
    return fits(prefix) || (prefix.startsWith(source) && fits(prefix.slice(source.length))) || (prefix.startsWith('mcp') && fits(prefix.slice(3)));
  };

  /** Readings of the query as a name: the whole of it, then each tail after a server prefix. */
  const readings = (query: string): { key: string; prefix: string }[] => {
    const trimmed = query.trim();
    if (trimmed.length === 0 || trimmed.length > MAX_NAME_QUERY) return [];
    const out = [{ key: normalizeName(trimmed), prefix: '' }];
    const parts = trimmed.split(PREFIX_SEPARATORS).filter(Boolean);
    for (let i = 1; i < parts.length && i <= 3; i++) out.push({ key: normalizeName(parts.slice(i).join('')), prefix: normalizeName(parts.slice(0, i).join('')) });
    return out.filter((reading) => reading.key.length > 0);
  };

  return {
    find(query, visible) {
      const shown = (doc: number): boolean => !visible || visible[doc] === 1;
      const all = readings(query);
      for (const { key, prefix } of all) {
        const docs = docsOf(key).filter((doc) => shown(doc) && (prefix === '' || prefixFits(prefix, doc)));
        if (docs.length > 0) return [...docs].sort(byId);
      }
      if (query.trim().split(/\s+/).length > MAX_TYPO_WORDS) return [];
      let best = Infinity;
      let found: number[] = [];
      for (const { key, prefix } of all) {
        const max = allowedTypos(key.length);
        if (max === 0) continue;
        for (const map of [byName, byTitle]) {
          for (const [candidate, docs] of map) {
            const bound = Math.min(max, best);
            if (Math.abs(candidate.length - key.length) > bound) continue;
            const distance = boundedDistance(key, candidate, bound);
            if (distance > bound) continue;
            const fits = (typeof docs === 'number' ? [docs] : docs).filter((doc) => shown(doc) && (prefix === '' || prefixFits(prefix, doc)));
            if (fits.length === 0) continue;
            if (distance < best) [best, found] = [distance, fits];
            else for (const doc of fits) if (!found.includes(doc)) found.push(doc);
          }
          if (found.length > 0) break;
        }
        if (found.length > 0) break;
      }
      return found.sort(byId);
    },
  };
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
  if (rows[0]!.length < n + 1) rows = [0, 1, 2].map(() => new Int32Array(2 * (n + 1))) as [Int32Array, Int32Array, Int32Array];
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
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) value = Math.min(value, prevPrev[j - 2]! + 1);
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
