/**
 * BM25F over a compact inverted index of integer term ids. Field term
 * frequencies are weighted and length-normalized per field, then saturated
 * once per (term, doc), so a term repeated in the name and the description is
 * not counted twice at full strength. Postings are typed arrays in CSR form
 * (one offset table, one doc array, one tf array: no per-term arrays for the
 * GC) holding the query-independent part of the score, and a query
 * accumulates into one reused Float64Array: a query costs one pass over the
 * postings of its terms, never a catalog scan.
 */
export interface FieldSpec {
  readonly weight: number;
  /** Length normalization strength for this field (BM25 `b`). */
  readonly b: number;
}

export interface EngineOptions {
  readonly k1: number;
  readonly fields: Readonly<Record<string, FieldSpec>>;
}

export interface Engine {
  readonly docCount: number;
  /** Number of documents containing term `id`. */
  df(id: number): number;
  idf(id: number): number;
  /**
   * Scores the query term ids (each with a query-side weight) into `scores`
   * (length `docCount`, all zero on entry), writes the touched doc indices to
   * `touched` (same length) and returns how many there are. Both buffers are
   * the caller's, reused across queries: a query allocates nothing per doc.
   */
  score(query: ReadonlyMap<number, number>, scores: Float64Array, touched: Int32Array): number;
}

type FieldTerms = Readonly<Record<string, readonly number[]>>;

/** `docs[i][field]` = that field's term ids for document i; ids are below `termCount`. */
export function buildEngine(docs: readonly FieldTerms[], termCount: number, options: EngineOptions): Engine {
  const specs = Object.entries(options.fields).filter(([, spec]) => spec.weight > 0);
  const fields = specs.map(([field]) => field);
  const weights = specs.map(([, spec]) => spec.weight);
  const bs = specs.map(([, spec]) => spec.b);
  const avg = fields.map((field) => {
    let total = 0;
    for (const doc of docs) total += doc[field]?.length ?? 0;
    return Math.max(total / Math.max(docs.length, 1), 1);
  });
  // Per-doc accumulation by term id, reset through `touched`: no per-doc maps.
  const acc = new Float64Array(termCount);
  const touched = new Int32Array(termCount);
  const dfs = new Int32Array(termCount);
  /** Accumulates doc `d`'s weighted tf per term into `acc`; returns how many distinct terms it has (in `touched`). */
  const accumulate = (d: number): number => {
    const doc = docs[d]!;
    let count = 0;
    for (let f = 0; f < fields.length; f++) {
      const list = doc[fields[f]!];
      if (!list || list.length === 0) continue;
      const b = bs[f]!;
      const norm = weights[f]! / (1 - b + (b * list.length) / avg[f]!);
      for (let i = 0; i < list.length; i++) {
        const id = list[i]!;
        if (acc[id] === 0) touched[count++] = id;
        acc[id]! += norm;
      }
    }
    return count;
  };
  // Two passes, so the postings go straight into exact-size CSR arrays: count document frequencies, then fill.
  for (let d = 0; d < docs.length; d++) {
    const count = accumulate(d);
    for (let i = 0; i < count; i++) {
      const id = touched[i]!;
      dfs[id]!++;
      acc[id] = 0;
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
  const n = docs.length;
  const k1 = options.k1;
  const df = (id: number): number => (id >= 0 && id < termCount ? dfs[id]! : 0);
  const idf = (id: number): number => {
    const count = df(id);
    return count === 0 ? 0 : Math.log(1 + (n - count + 0.5) / (count + 0.5));
  };
  return {
    docCount: n,
    df,
    idf,
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
