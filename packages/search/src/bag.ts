/**
 * A document's fields as packed bags: one Int32Array per document holding,
 * field after field, `[length, n, id_1 … id_n, count_1 … count_n]` (field
 * length in term occurrences, then the distinct term ids and their counts).
 * The engine works on bags, so building postings costs one step per distinct
 * term rather than per occurrence; one typed array per tool keeps a cached
 * tool small (no per-field arrays for the GC). Documents are written into one
 * reused buffer (`beginDoc`, `add…`, `endDoc`) and then copied into a shared slab (see `endDoc`).
 */
export type PackedDoc = Int32Array;

let buffer = new Int32Array(4096);
let used = 0;
/** Slot + 1 of a term id in the bag being built; reset after each bag, grown on demand. */
let slot = new Int32Array(1024);
/** The open bag: its distinct ids (first-seen order), their counts, and its length in occurrences. */
let ids = new Int32Array(256);
let counts = new Int32Array(256);
let distinct = 0;
let length = 0;

/**
 * Finished documents are views into shared slabs: one small typed array per tool would each get its own
 * off-heap backing store (V8 keeps only tiny typed arrays on the heap), which cost more than the packing.
 * A slab lives while any of its documents does; at 64K ids that bounds the waste to 256 KiB a slab.
 */
const SLAB = 1 << 16;
let slab = new Int32Array(SLAB);
let slabUsed = 0;

export function beginDoc(): void {
  used = 0;
}

export function endDoc(): PackedDoc {
  if (used > SLAB >> 2) return buffer.slice(0, used);
  if (slabUsed + used > SLAB) {
    slab = new Int32Array(SLAB);
    slabUsed = 0;
  }
  const doc = slab.subarray(slabUsed, slabUsed + used);
  doc.set(buffer.subarray(0, used));
  slabUsed += used;
  return doc;
}

/** Adds the bag of the concatenation of `lists` as the next field. */
export function addBag(...lists: readonly (readonly number[])[]): void {
  for (const list of lists) addList(list);
  closeBag();
}

/** Adds `list`'s term ids to the open bag (`closeBag` writes it as the next field): `addBag` without the arrays. */
export function addList(list: readonly number[]): void {
  length += list.length;
  // `count` inlined: this loop runs once per word of every tool, often before the JIT has optimized it.
  for (let i = 0; i < list.length; i++) {
    const id = list[i]!;
    if (id >= slot.length) grow(id);
    const at = slot[id]!;
    if (at === 0) {
      if (distinct === ids.length) growBag();
      ids[distinct] = id;
      counts[distinct++] = 1;
      slot[id] = distinct;
    } else counts[at - 1]!++;
  }
}

/** Writes the open bag as the next field and starts an empty one. */
export function closeBag(): void {
  flush(length);
}

/** Adds the union of field `field` of each of `docs` (counts and lengths added up) as the next field. */
export function addMergedBag(docs: readonly PackedDoc[], field: number): void {
  let total = 0;
  for (const doc of docs) {
    const at = fieldAt(doc, field);
    const n = doc[at + 1]!;
    total += doc[at]!;
    for (let i = 0; i < n; i++) count(doc[at + 2 + i]!, doc[at + 2 + n + i]!);
  }
  flush(total);
}

/** Adds field `field` of `doc` unchanged as the next field. */
export function addField(doc: PackedDoc, field: number): void {
  const at = fieldAt(doc, field);
  const size = 2 + 2 * doc[at + 1]!;
  reserve(size);
  buffer.set(doc.subarray(at, at + size), used);
  used += size;
}

/** Offset of field `field` in a packed doc. */
export function fieldAt(doc: PackedDoc, field: number): number {
  let at = 0;
  for (let f = 0; f < field; f++) at += 2 + 2 * doc[at + 1]!;
  return at;
}

function grow(id: number): void {
  const grown = new Int32Array(Math.max(id + 1, slot.length * 2));
  grown.set(slot);
  slot = grown;
}

function growBag(): void {
  const moreIds = new Int32Array(ids.length * 2);
  moreIds.set(ids);
  ids = moreIds;
  const moreCounts = new Int32Array(counts.length * 2);
  moreCounts.set(counts);
  counts = moreCounts;
}

function count(id: number, times: number): void {
  if (id >= slot.length) grow(id);
  const at = slot[id]!;
  if (at === 0) {
    if (distinct === ids.length) growBag();
    ids[distinct] = id;
    counts[distinct++] = times;
    slot[id] = distinct;
  } else counts[at - 1]! += times;
}

function flush(total: number): void {
  const n = distinct;
  reserve(2 + 2 * n);
  buffer[used] = total;
  buffer[used + 1] = n;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    buffer[used + 2 + i] = id;
    buffer[used + 2 + n + i] = counts[i]!;
    slot[id] = 0;
  }
  used += 2 + 2 * n;
  distinct = 0;
  length = 0;
}

function reserve(size: number): void {
  if (used + size <= buffer.length) return;
  const grown = new Int32Array(Math.max(used + size, buffer.length * 2));
  grown.set(buffer.subarray(0, used));
  buffer = grown;
}
