/**
 * The last-resort suggestion of the ranker (nothing in the catalog shares two letters with the query): the same
 * order as the kernel's `suggestIds` (token overlap × 2 minus the edit distance to the name or id, relative to the
 * query's length; ties by id), without its per-row arrays and per-tool strings: one pair of reused rows, and tokens
 * compared in place. A query that reaches it is scored against a few dozen names, so it stays cheap and quiet.
 */
import type { ToolDescriptor } from '@tool-search/kernel';

/** The best `count` of `docs` for `requested`, best first (ids ordered as `suggestIds` orders them). */
export function closestDocs(
  requested: string,
  docs: readonly number[],
  tools: readonly ToolDescriptor[],
  count: number,
): number[] {
  const wanted = requested.toLowerCase();
  const wantedTokens = [...new Set(tokenRanges(wanted).map(([from, to]) => wanted.slice(from, to)))];
  const scores = docs.map((doc) => {
    const tool = tools[doc]!;
    const name = tool.name.toLowerCase();
    const id = tool.id.toLowerCase();
    const distance = Math.min(editDistance(wanted, name), editDistance(wanted, id));
    const shared = sharedTokens(id, wantedTokens) + sharedTokens(name, wantedTokens);
    return shared * 2 - distance / Math.max(wanted.length, 1);
  });
  const order = docs.map((_, i) => i);
  order.sort((a, b) => scores[b]! - scores[a]! || (tools[docs[a]!]!.id < tools[docs[b]!]!.id ? -1 : 1));
  return order.slice(0, count).map((i) => docs[i]!);
}

/** [start, end) of each `[a-z0-9]+` run (the kernel's `tokens`). */
function tokenRanges(text: string): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    const word = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (word && start < 0) start = i;
    else if (!word && start >= 0) {
      out.push([start, i]);
      start = -1;
    }
  }
  return out;
}

/** How many `[a-z0-9]+` runs of `text` (repeats counted) are one of `wanted`: no substring made. */
function sharedTokens(text: string, wanted: readonly string[]): number {
  if (wanted.length === 0) return 0;
  let shared = 0;
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    const word = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (word && start < 0) start = i;
    else if (!word && start >= 0) {
      for (const token of wanted)
        if (token.length === i - start && text.startsWith(token, start)) {
          shared++;
          break;
        }
      start = -1;
    }
  }
  return shared;
}

/** The kernel's `editDistance` (Levenshtein; by length past 200 characters) over two reused rows. */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length > 200 || b.length > 200) return Math.abs(a.length - b.length) + Math.min(a.length, b.length);
  let previous = rowA;
  let current = rowB;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1),
      );
    const done = previous;
    previous = current;
    current = done;
  }
  return previous[b.length]!;
}

/** Rows of `editDistance`: both strings are at most 200 characters by then. */
const rowA = new Int32Array(201);
const rowB = new Int32Array(201);
