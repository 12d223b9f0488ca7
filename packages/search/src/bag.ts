/**
 * A document's fields as packed bags: one Int32Array per document holding,
 * field after field, `[length, n, id_1 … id_n, count_1 … count_n]` (field
 * length in term occurrences, then the distinct term ids and their counts).
 * The engine works on bags, so building postings costs one step per distinct
 * term rather than per occurrence; one typed array per tool keeps a cached
 * tool small (no per-field arrays for the GC). Documents are written into one
 * reused buffer (`beginDoc`, `add…`, `endDoc`): one allocation per document.
 */
export type PackedDoc = Int32Array;

let buffer = new Int32Array(4096);
let used = 0;
/** Slot + 1 of a term id in the bag being built; reset after each bag, grown on demand. */
let slot = new Int32Array(1024);
const ids: number[] = [];
const counts: number[] = [];

export function beginDoc(): void {
  used = 0;
}

export function endDoc(): PackedDoc {
  return buffer.slice(0, used);
}

/** Adds the bag of the concatenation of `lists` as the next field. */
export function addBag(...lists: readonly (readonly number[])[]): void {
  let length = 0;
  for (const list of lists) {
    length += list.length;
    // `count` inlined: this loop runs once per word of every tool, often before the JIT has optimized it.
    for (let i = 0; i < list.length; i++) {
      const id = list[i]!;
      if (id >= slot.length) grow(id);
      const at = slot[id]!;
      if (at === 0) {
        ids.push(id);
        counts.push(1);
        slot[id] = ids.length;
      } else counts[at - 1]!++;
    }
  }
  flush(length);
}

/** Adds the union of field `field` of each of `docs` (counts and lengths added up) as the next field. */
export function addMergedBag(docs: readonly PackedDoc[], field: number): void {
  let length = 0;
  for (const doc of docs) {
    const at = fieldAt(doc, field);
    const n = doc[at + 1]!;
    length += doc[at]!;
    for (let i = 0; i < n; i++) count(doc[at + 2 + i]!, doc[at + 2 + n + i]!);
  }
  flush(length);
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

function count(id: number, times: number): void {
  if (id >= slot.length) grow(id);
  const at = slot[id]!;
  if (at === 0) {
    ids.push(id);
    counts.push(times);
    slot[id] = ids.length;
  } else counts[at - 1]! += times;
}

function flush(length: number): void {
  const n = ids.length;
  reserve(2 + 2 * n);
  buffer[used] = length;
  buffer[used + 1] = n;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    buffer[used + 2 + i] = id;
    buffer[used + 2 + n + i] = counts[i]!;
    slot[id] = 0;
  }
  used += 2 + 2 * n;
  ids.length = 0;
  counts.length = 0;
}

function reserve(size: number): void {
  if (used + size <= buffer.length) return;
  const grown = new Int32Array(Math.max(used + size, buffer.length * 2));
  grown.set(buffer.subarray(0, used));
  buffer = grown;
}
