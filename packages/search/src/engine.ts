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
  /** Calls `visit` with every document containing term `id`, in document order. */
  eachDoc(id: number, visit: (doc: number) => void): void;
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
  const { offsets, gapOffsets, gaps, postTfs } = buildPostings(docs, termCount, options.fields, options.k1);
  const n = docs.length;
  const k1 = options.k1;
  // Document frequency is the posting-list length: no separate table survives the build.
  const df = (id: number): number => (id >= 0 && id < termCount ? offsets[id + 1]! - offsets[id]! : 0);
  const idf = (id: number): number => {
    const count = df(id);
    return count === 0 ? 0 : Math.log(1 + (n - count + 0.5) / (count + 0.5));
  };
  /** Walks term `id`'s postings: `visit(doc, posting)` until it returns true. */
  const walk = (id: number, visit: (doc: number, posting: number) => boolean | void): void => {
    let doc = -1;
    let at = gapOffsets[id]!;
    for (let i = offsets[id]!, end = offsets[id + 1]!; i < end; i++) {
      const gap = gaps[at++]!;
      doc += gap === ESCAPE ? gaps[at++]! * 65536 + gaps[at++]! : gap;
      if (visit(doc, i) === true) return;
    }
  };
  return {
    docCount: n,
    df,
    idf,
    some(id, keep) {
      if (df(id) === 0) return false;
      let found = false;
      walk(id, (doc) => (found = keep(doc)));
      return found;
    },
    eachDoc(id, visit) {
      // `visit` returns nothing, so the walk never stops early: no wrapper closure per call.
      if (df(id) > 0) walk(id, visit);
    },
    score(query, scores, hit) {
      let count = 0;
      // forEach, not for-of: destructuring each entry allocated a pair per term per query.
      query.forEach((weight, id) => {
        if (df(id) === 0) return;
        const w = (idf(id) * weight * (k1 + 1)) / SATURATION_SCALE;
        // The walk, inlined: this loop is the whole cost of a query.
        let doc = -1;
        let at = gapOffsets[id]!;
        for (let i = offsets[id]!, end = offsets[id + 1]!; i < end; i++) {
          const gap = gaps[at++]!;
          doc += gap === ESCAPE ? gaps[at++]! * 65536 + gaps[at++]! : gap;
          if (scores[doc] === 0) hit[count++] = doc;
          scores[doc]! += w * postTfs[i]!;
        }
      });
      return count;
    },
  };
}

/** Saturated tfs are stored as integer fractions of this. */
const SATURATION_SCALE = 65535;

/** A gap this large is written as ESCAPE, then the gap's high and low 16 bits. */
const ESCAPE = 0xffff;

interface Postings {
  /** Per term, its first posting (tfs are indexed by posting). */
  readonly offsets: Int32Array;
  /** Per term, its first slot in `gaps`. */
  readonly gapOffsets: Int32Array;
  /**
   * Doc ids as gaps from the previous one (the first from -1), 16 bits each, escaped past 65,534: half the memory
   * of an Int32Array of ids, and a query reads its postings in order anyway.
   */
  readonly gaps: Uint16Array;
  /** Per posting, the saturated term frequency tf / (k1 + tf) in [0, 1), as a 16-bit fraction (`SATURATION_SCALE`). */
  readonly postTfs: Uint16Array;
}

function buildPostings(
  docs: readonly PackedDoc[],
  termCount: number,
  fields: readonly FieldSpec[],
  k1: number,
): Postings {
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
  // `seen` holds each term's last doc + 1, so the first pass also counts the slots its gaps need.
  const seen = new Int32Array(termCount);
  const slots = new Int32Array(termCount);
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d]!;
    for (let f = 0, at = 0; f < fields.length; f++) {
      const n = doc[at + 1]!;
      if (fields[f]!.weight > 0 && doc[at]! > 0) {
        for (let i = at + 2, end = at + 2 + n; i < end; i++) {
          const id = doc[i]!;
          if (seen[id] !== d + 1) {
            slots[id]! += d + 1 - seen[id]! >= ESCAPE ? 3 : 1;
            seen[id] = d + 1;
            dfs[id]!++;
          }
        }
      }
      at += 2 + 2 * n;
    }
  }
  const offsets = new Int32Array(termCount + 1);
  const gapOffsets = new Int32Array(termCount + 1);
  for (let id = 0; id < termCount; id++) {
    offsets[id + 1] = offsets[id]! + dfs[id]!;
    gapOffsets[id + 1] = gapOffsets[id]! + slots[id]!;
  }
  const gaps = new Uint16Array(gapOffsets[termCount]!);
  const gapFill = gapOffsets.slice(0, termCount);
  seen.fill(0);
  // The saturated tf, not the tf: it is all a query needs (no division per posting), and it lies in [0, 1), so 16
  // bits hold it to 1.5e-5 (a quarter of the Float64 array's memory; the rankings of the shared sets are unchanged).
  const postTfs = new Uint16Array(offsets[termCount]!);
  const fill = offsets.slice(0, termCount);
  for (let d = 0; d < docs.length; d++) {
    const count = accumulate(d);
    for (let i = 0; i < count; i++) {
      const id = touched[i]!;
      const at = fill[id]!++;
      const gap = d + 1 - seen[id]!;
      seen[id] = d + 1;
      if (gap < ESCAPE) gaps[gapFill[id]!++] = gap;
      else {
        gaps[gapFill[id]!++] = ESCAPE;
        gaps[gapFill[id]!++] = gap >>> 16;
        gaps[gapFill[id]!++] = gap & 0xffff;
      }
      const tf = acc[id]!;
      postTfs[at] = Math.max(1, Math.round((tf / (k1 + tf)) * SATURATION_SCALE));
      acc[id] = 0;
    }
  }
  return { offsets, gapOffsets, gaps, postTfs };
}
