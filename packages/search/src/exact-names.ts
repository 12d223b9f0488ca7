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
  // Per doc, the length of its name key then of its title key (capped: LONG_KEY = look at the key itself), so the
  // typo scan passes over a tool whose length is out of reach without building its key (a string per candidate).
  const keyLengths = new Uint16Array(tools.length * 2);
  const names: string[] = [];
  tools.forEach((tool, doc) => {
    insert(tool.id.toLowerCase(), doc, ID);
    const name = normalizeName(tool.name);
    names.push(name);
    insert(name, doc, NAME);
    keyLengths[doc * 2] = Math.min(name.length, LONG_KEY);
    if (tool.title) {
      const title = normalizeName(tool.title);
      insert(title, doc, TITLE);
      keyLengths[doc * 2 + 1] = Math.min(title.length, LONG_KEY);
    }
  });
  const keyLength = (doc: number, kind: number): number => {
    const length = keyLengths[doc * 2 + (kind === NAME ? 0 : 1)]!;
    return length === LONG_KEY ? keyOf(doc, kind).length : length;
  };
  /** The docs whose key of `kind` is `key`. */
  const lookup = (key: string, kind: number): number[] => {
    // Most lookups find nothing: no array until one does.
    let out: number[] | undefined;
    if (key.length === 0) return NO_DOCS;
    const hash = hashOf(key);
    for (let at = hash & (size - 1); slots[at] !== 0; at = (at + 1) & (size - 1)) {
      if (hashes[at] !== hash) continue;
      const value = slots[at]! - 1;
      const doc = value >> 2;
      if ((value & 3) === kind && !out?.includes(doc) && keyOf(doc, kind) === key) (out ??= []).push(doc);
    }
    return out ?? NO_DOCS;
  };

  // Servers and sources normalized once (a few hundred strings even at 100,000 tools): a typo scan asks per candidate.
  const normalized = new Map<string, string>();
  for (const tool of tools)
    for (const text of [tool.owner, tool.source]) if (!normalized.has(text)) normalized.set(text, normalizeName(text));
  // The last answer of `prefixFits`: a scan meets the tools of one server in a row (the ranking groups them).
  let last = { prefix: '', owner: '', source: '', fits: false };
  /** Whether `prefix` (normalized) names the server or source of `doc`: "github", "mcpgithub", "mcp__github". */
  const prefixFits = (prefix: string, doc: number): boolean => {
    const tool = tools[doc]!;
    if (prefix === last.prefix && tool.owner === last.owner && tool.source === last.source) return last.fits;
    const owner = normalized.get(tool.owner) ?? normalizeName(tool.owner);
    const source = normalized.get(tool.source) ?? normalizeName(tool.source);
    const fits =
      tailFits(prefix, 0, owner, source) ||
      (prefix.startsWith(source) && tailFits(prefix, source.length, owner, source)) ||
      (prefix.startsWith('mcp') && tailFits(prefix, 3, owner, source));
    last = { prefix, owner: tool.owner, source: tool.source, fits };
    return fits;
  };

  /** Readings of the query as a name: the whole of it, then each tail after a server prefix. */
  const readings = (query: string): { key: string; prefix: string }[] => {
    const trimmed = query.trim();
    if (trimmed.length === 0 || trimmed.length > MAX_NAME_QUERY) return [];
    const whole = normalizeName(trimmed);
    const out = [{ key: whole, prefix: '' }];
    const parts = trimmed.split(PREFIX_SEPARATORS).filter(Boolean);
    // ASCII: the separators are not name characters, so each tail and its prefix are slices of the whole key
    // (one normalization, not two per tail). Other text is normalized piece by piece, as lowercasing may read context.
    const ascii = ASCII_TEXT.test(trimmed);
    let cut = 0;
    for (let i = 1; i < parts.length && i <= 3; i++) {
      cut += ascii ? nameChars(parts[i - 1]!) : 0;
      out.push(
        ascii
          ? { key: whole.slice(cut), prefix: whole.slice(0, cut) }
          : { key: normalizeName(parts.slice(i).join('')), prefix: normalizeName(parts.slice(0, i).join('')) },
      );
    }
    return out.filter((reading) => reading.key.length > 0);
  };

  // Docs ordered by normalized name, made with the table (not on the first typo, which paid a sort of every name):
  // a misspelt name's neighbours in that order.
  const order = Int32Array.from(names.keys()).sort((a, b) =>
    names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : a - b,
  );
  names.length = 0;
  const byPrefix = (key: string): Int32Array => {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareCodes(normalizedCodes(tools[order[mid]!]!.name), key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return order.subarray(Math.max(0, lo - NEIGHBOURS), lo + NEIGHBOURS);
  };
  // The typo scan's pool, reused: each doc once (`inPool` marks it until the scan ends), no Set per query.
  const pool: number[] = [];
  const inPool = new Uint8Array(tools.length);
  const addToPool = (doc: number): void => {
    if (inPool[doc] === 0) {
      inPool[doc] = 1;
      pool.push(doc);
    }
  };

  return {
    find(query, visible, candidates) {
      const shown = (doc: number): boolean => !visible || visible[doc] === 1;
      const byIdKey = lookup(query.trim().toLowerCase(), ID);
      if (byIdKey.length > 0 && byIdKey.some(shown)) return byIdKey.filter(shown).sort(byId);
      const all = readings(query);
      for (const kind of KINDS) {
        for (const { key, prefix } of all) {
          const found = lookup(key, kind);
          if (found.length === 0) continue;
          const docs = found.filter((doc) => shown(doc) && (prefix === '' || prefixFits(prefix, doc)));
          if (docs.length > 0) return docs.sort(byId);
        }
      }
      if (all.length === 0 || MORE_THAN_TYPO_WORDS.test(query)) return [];
      // A typo: the closest name (then title) among the tools that share a word or a word's prefix with the query.
      let best = Infinity;
      let found: number[] = [];
      try {
        for (const doc of candidates()) addToPool(doc);
        for (const { key } of all) {
          const near = byPrefix(key);
          for (let i = 0; i < near.length; i++) addToPool(near[i]!);
        }
        for (const kind of KINDS) {
          for (let i = 0; i < pool.length; i++) {
            const doc = pool[i]!;
            if (!shown(doc)) continue;
            const length = keyLength(doc, kind);
            if (length === 0) continue;
            let n = -1;
            for (const { key, prefix } of all) {
              const bound = Math.min(allowedTypos(key.length), best);
              if (bound === 0 || Math.abs(length - key.length) > bound) continue;
              // The server prefix first: it is a compare, the distance is a table (most tails have no such server).
              if (prefix !== '' && !prefixFits(prefix, doc)) continue;
              // The key as codes in a reused buffer, made once per candidate: no string and no regex.
              if (n < 0) n = normalizedCodes(kind === NAME ? tools[doc]!.name : (tools[doc]!.title ?? ''));
              const distance = distanceTo(key, codes, n, bound);
              if (distance > bound) continue;
              if (distance < best) [best, found] = [distance, [doc]];
              else if (!found.includes(doc)) found.push(doc);
            }
          }
          if (found.length > 0) break;
        }
      } finally {
        for (const doc of pool) inPool[doc] = 0;
        pool.length = 0;
      }
      return found.sort(byId);
    },
  };
}

/** Key lengths are kept in 16 bits; this one means "longer: measure the key". */
const LONG_KEY = 0xffff;

/** A misspelt name is also compared with this many names on either side of it in sorted order. */
const NEIGHBOURS = 150;

const ID = 0;
const NAME = 1;
const TITLE = 2;
/** Name keys before title keys. */
const KINDS = [NAME, TITLE] as const;
/** What a lookup that finds nothing returns (never written to). */
const NO_DOCS: number[] = [];

/** FNV-1a over UTF-16 code units. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** Queries longer than this are never read as a name. */
const MAX_NAME_QUERY = 120;
/** A typo is looked for only in queries of at most four words: this matches a fifth (a test, not a split). */
const MORE_THAN_TYPO_WORDS = /\S+(?:\s+\S+){4}/;
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
  if (b.length > other.length) other = new Uint16Array(2 * b.length);
  for (let i = 0; i < b.length; i++) other[i] = b.charCodeAt(i);
  return distanceTo(a, other, b.length, max);
}
let other = new Uint16Array(64);

/** `boundedDistance` from `a` to the first `n` codes of `b`. */
function distanceTo(a: string, b: Uint16Array, n: number, max: number): number {
  if (Math.abs(a.length - n) > max) return max + 1;
  if (rows[0]!.length < n + 1)
    rows = [0, 1, 2].map(() => new Int32Array(2 * (n + 1))) as [Int32Array, Int32Array, Int32Array];
  let prevPrev = rows[0];
  let prev = rows[1];
  let row = rows[2];
  for (let j = 0; j <= n; j++) prev[j] = j <= max ? j : max + 1;
  for (let i = 1; i <= a.length; i++) {
    // Only the band is computed; the cells beside it that the next rows read are set to "too far" (max + 1).
    row[0] = i <= max ? i : max + 1;
    let rowMin = row[0]!;
    const from = Math.max(1, i - max);
    const to = Math.min(n, i + max);
    row[from - 1] = from - 1 === 0 ? row[0]! : max + 1;
    if (to < n) row[to + 1] = max + 1;
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b[j - 1] ? 0 : 1;
      let value = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b[j - 2] && a.charCodeAt(i - 2) === b[j - 1])
        value = Math.min(value, prevPrev[j - 2]! + 1);
      row[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    const done = prevPrev;
    prevPrev = prev;
    prev = row;
    row = done;
  }
  return Math.min(prev[n]!, max + 1);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, NUL included, is the point
const ASCII_TEXT = /^[\x00-\x7f]*$/;

/** How many characters of ASCII `text` a name key keeps (letters and digits). */
function nameChars(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) count++;
  }
  return count;
}

/** The buffer `normalizedCodes` writes a key into, reused (grown on demand). */
let codes = new Uint16Array(256);

/**
 * `normalizeName(text)` as UTF-16 codes at the start of `codes`; returns its length. ASCII text (nearly every tool
 * name) is lowercased and stripped in one pass, without the regex and the new string; other text goes the regex way.
 */
function normalizedCodes(text: string): number {
  if (text.length > codes.length) codes = new Uint16Array(2 * text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c > 127) return copyCodes(normalizeName(text));
    if (c >= 65 && c <= 90) c += 32;
    else if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) continue;
    codes[n++] = c;
  }
  return n;
}

function copyCodes(key: string): number {
  if (key.length > codes.length) codes = new Uint16Array(2 * key.length);
  for (let i = 0; i < key.length; i++) codes[i] = key.charCodeAt(i);
  return key.length;
}

/** The first `n` of `codes` against `key` as strings compare (by UTF-16 code unit): negative, 0 or positive. */
function compareCodes(n: number, key: string): number {
  const common = Math.min(n, key.length);
  for (let i = 0; i < common; i++) {
    const d = codes[i]! - key.charCodeAt(i);
    if (d !== 0) return d;
  }
  return n - key.length;
}

/**
 * Whether `prefix` from `from` on names a server or source: it is the owner, the source, both, or (3 letters or
 * more) the owner's end. Compared in place: no slice per candidate.
 */
function tailFits(prefix: string, from: number, owner: string, source: string): boolean {
  const length = prefix.length - from;
  if (length === owner.length && prefix.startsWith(owner, from)) return true;
  if (length === source.length && prefix.startsWith(source, from)) return true;
  if (
    length === source.length + owner.length &&
    prefix.startsWith(source, from) &&
    prefix.startsWith(owner, from + source.length)
  )
    return true;
  if (length < 3 || length > owner.length) return false;
  for (let i = 0, at = owner.length - length; i < length; i++)
    if (owner.charCodeAt(at + i) !== prefix.charCodeAt(from + i)) return false;
  return true;
}

/** Reused rows of `boundedDistance` (grown on demand): a typo scan allocates nothing per candidate. */
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];
