/**
 * BM25F over a compact inverted index of integer term ids. Field term
 * frequencies are weighted and length-normalized per field, then saturated
 * once per (term, doc), so a term repeated in the name and the description is
 * not counted twice at full strength. Documents come as packed bags (bag.ts),
 * so the build costs one step per distinct term of a field, not per word.
 * Postings are typed arrays in CSR form
 * (one offset table, one doc array, one tf array: no per-term arrays for the
 * GC) holding the query-independent part of the score, and a query
 * accumulates into one reused Float64Array: a query costs one pass over the
 * postings of its terms, never a catalog scan.
 */
import type { PackedDoc } from './bag.js';

export interface FieldSpec {
  readonly weight: number;
  /** Length normalization strength for this field (BM25 `b`). */
  readonly b: number;
}

export interface EngineOptions {
  readonly k1: number;
  /** One spec per packed field, in packing order; a document may carry more fields, which are ignored. */
  readonly fields: readonly FieldSpec[];
}

export interface Engine {
  readonly docCount: number;
  /** Number of documents containing term `id`. */
  df(id: number): number;
  idf(id: number): number;
  /** Whether some document containing term `id` passes `keep` (stops at the first one). */
  some(id: number, keep: (doc: number) => boolean): boolean;
  /** Whether document `doc` contains term `id` in a scored field (binary search in its posting list). */
  has(id: number, doc: number): boolean;
  /**
   * Scores the query term ids (each with a query-side weight) into `scores`
   * (length `docCount`, all zero on entry), writes the touched doc indices to
   * `touched` (same length) and returns how many there are. Both buffers are
   * the caller's, reused across queries: a query allocates nothing per doc.
   */
  score(query: ReadonlyMap<number, number>, scores: Float64Array, touched: Int32Array): number;
}

/** `docs[i]` = document i's packed field bags (see bag.ts); ids are below `termCount`. */
export function buildEngine(docs: readonly PackedDoc[], termCount: number, options: EngineOptions): Engine {
  // Built in its own function so the closures below keep only the postings, not the docs and build buffers.
  const { offsets, postDocs, postTfs } = buildPostings(docs, termCount, options.fields);
  const n = docs.length;
  const k1 = options.k1;
  // Document frequency is the posting-list length: no separate table survives the build.
  const df = (id: number): number => (id >= 0 && id < termCount ? offsets[id + 1]! - offsets[id]! : 0);
  const idf = (id: number): number => {
    const count = df(id);
    return count === 0 ? 0 : Math.log(1 + (n - count + 0.5) / (count + 0.5));
  };
  return {
    docCount: n,
    df,
    idf,
    some(id, keep) {
      if (df(id) === 0) return false;
      for (let i = offsets[id]!, end = offsets[id + 1]!; i < end; i++) if (keep(postDocs[i]!)) return true;
      return false;
    },
    has(id, doc) {
      if (df(id) === 0) return false;
      // Postings are written in document order, so each list is sorted.
      let lo = offsets[id]!;
      let hi = offsets[id + 1]! - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const at = postDocs[mid]!;
        if (at === doc) return true;
        if (at < doc) lo = mid + 1;
        else hi = mid - 1;
      }
      return false;
    },
    score(query, scores, hit) {
      let count = 0;
      for (const [id, weight] of query) {
        if (df(id) === 0) continue;
        const w = idf(id) * weight * (k1 + 1);
        for (let i = offsets[id]!, end = offsets[id + 1]!; i < end; i++) {
          const doc = postDocs[i]!;
          const tf = postTfs[i]!;
          if (scores[doc] === 0) hit[count++] = doc;
          scores[doc]! += (w * tf) / (k1 + tf);
        }
      }
      return count;
    },
  };
}

interface Postings {
  readonly offsets: Int32Array;
  readonly postDocs: Int32Array;
  readonly postTfs: Float64Array;
}

function buildPostings(docs: readonly PackedDoc[], termCount: number, fields: readonly FieldSpec[]): Postings {
  const avg = fields.map(() => 0);
  for (const doc of docs) {
    for (let f = 0, at = 0; f < fields.length; f++, at += 2 + 2 * doc[at + 1]!) avg[f]! += doc[at]!;
  }
  for (let f = 0; f < fields.length; f++) avg[f] = Math.max(avg[f]! / Math.max(docs.length, 1), 1);
  // Per-doc accumulation by term id, reset through `touched`: no per-doc maps.
  const acc = new Float64Array(termCount);
  const touched = new Int32Array(termCount);
  const dfs = new Int32Array(termCount);
  /** Accumulates doc `d`'s weighted tf per term into `acc`; returns how many distinct terms it has (in `touched`). */
  const accumulate = (d: number): number => {
    const doc = docs[d]!;
    let count = 0;
    for (let f = 0, at = 0; f < fields.length; f++) {
      const length = doc[at]!;
      const n = doc[at + 1]!;
      const { weight, b } = fields[f]!;
      if (weight > 0 && length > 0) {
        const norm = weight / (1 - b + (b * length) / avg[f]!);
        for (let i = at + 2, end = at + 2 + n; i < end; i++) {
          const id = doc[i]!;
          if (acc[id] === 0) touched[count++] = id;
          acc[id]! += doc[i + n]! * norm;
        }
      }
      at += 2 + 2 * n;
    }
    return count;
  };
  // Two passes, no intermediate buffer: the first counts document frequencies (a term counts once per doc, over
  // the fields that score), which sizes the CSR arrays exactly; the second accumulates each doc's weighted tfs and
  // writes them straight into their posting lists. (A flat (term, tf) buffer between the passes cost more in
  // allocation and copying than reading the bags twice: ~70 MB at 100,000 tools.)
  const seen = new Int32Array(termCount);
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d]!;
    for (let f = 0, at = 0; f < fields.length; f++) {
      const n = doc[at + 1]!;
      if (fields[f]!.weight > 0 && doc[at]! > 0) {
        for (let i = at + 2, end = at + 2 + n; i < end; i++) {
          const id = doc[i]!;
          if (seen[id] !== d + 1) {
            seen[id] = d + 1;
            dfs[id]!++;
          }
        }
      }
      at += 2 + 2 * n;
    }
  }
  const offsets = new Int32Array(termCount + 1);
  for (let id = 0; id < termCount; id++) offsets[id + 1] = offsets[id]! + dfs[id]!;
  const postDocs = new Int32Array(offsets[termCount]!);
  const postTfs = new Float64Array(offsets[termCount]!);
  const fill = offsets.slice(0, termCount);
  for (let d = 0; d < docs.length; d++) {
    const count = accumulate(d);
    for (let i = 0; i < count; i++) {
      const id = touched[i]!;
      const at = fill[id]!++;
      postDocs[at] = d;
      postTfs[at] = acc[id]!;
      acc[id] = 0;
    }
  }
  return { offsets, postDocs, postTfs };
}
