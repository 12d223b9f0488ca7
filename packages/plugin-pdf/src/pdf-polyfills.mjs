// What pdf.js's modern build calls that Node 20 lacks, for the worker thread only (pdf-worker.mjs imports this before
// pdf.js; the host's globals are untouched). pdfjs-dist's legacy build adds these through core-js (its list of
// core-js modules is where this one comes from); unpdf's build, which the worker loads, adds only Promise.withResolvers,
// Promise.try, Map#getOrInsertComputed and Uint8Array#toHex. Without Set#intersection, for one, extractPages fails on
// any PDF with named destinations. Each is defined only where missing, so a newer Node keeps its own.
// Plain JavaScript, like the worker. New arrays are made with the global constructors, which the worker charges.

function define(target, name, value) {
  if (!(name in target)) Object.defineProperty(target, name, { value, writable: true, configurable: true });
}

// Iterator helpers (Node 22): on %IteratorPrototype%, so Map, Set, array and generator iterators all have them.
const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
const lazy = {
  *map(fn) {
    let i = 0;
    for (const value of iterate(this)) yield fn(value, i++);
  },
  *filter(fn) {
    let i = 0;
    for (const value of iterate(this)) if (fn(value, i++)) yield value;
  },
  *flatMap(fn) {
    let i = 0;
    for (const value of iterate(this)) yield* iterate(fn(value, i++));
  },
  *take(limit) {
    if (limit <= 0) return;
    let left = limit;
    for (const value of iterate(this)) {
      yield value;
      if (--left <= 0) return;
    }
  },
  *drop(count) {
    let left = count;
    for (const value of iterate(this)) if (left-- <= 0) yield value;
  },
};
const eager = {
  toArray() {
    return [...iterate(this)];
  },
  forEach(fn) {
    let i = 0;
    for (const value of iterate(this)) fn(value, i++);
  },
  some(fn) {
    let i = 0;
    for (const value of iterate(this)) if (fn(value, i++)) return true;
    return false;
  },
  every(fn) {
    let i = 0;
    for (const value of iterate(this)) if (!fn(value, i++)) return false;
    return true;
  },
  find(fn) {
    let i = 0;
    for (const value of iterate(this)) if (fn(value, i++)) return value;
    return undefined;
  },
  reduce(fn, ...initial) {
    let i = 0;
    let started = initial.length > 0;
    let accumulator = initial[0];
    for (const value of iterate(this)) {
      accumulator = started ? fn(accumulator, value, i) : value;
      started = true;
      i++;
    }
    if (!started) throw new TypeError('Reduce of empty iterator with no initial value');
    return accumulator;
  },
};
for (const [name, fn] of Object.entries({ ...lazy, ...eager })) define(IteratorPrototype, name, fn);

/** An iterator (or iterable) as something `for…of` walks, without calling its [Symbol.iterator] twice. */
function iterate(iterator) {
  if (typeof iterator.next !== 'function') return iterator;
  return { [Symbol.iterator]: () => iterator };
}

// Set methods (Node 22); `other` is set-like (has, keys, size), as the spec allows.
const SetPrototype = Set.prototype;
define(SetPrototype, 'union', function union(other) {
  return new Set([...this, ...iterate(other.keys())]);
});
define(SetPrototype, 'intersection', function intersection(other) {
  return new Set([...this].filter((value) => other.has(value)));
});
define(SetPrototype, 'difference', function difference(other) {
  return new Set([...this].filter((value) => !other.has(value)));
});
define(SetPrototype, 'symmetricDifference', function symmetricDifference(other) {
  const result = new Set(this);
  for (const value of iterate(other.keys()))
    if (this.has(value)) result.delete(value);
    else result.add(value);
  return result;
});
define(SetPrototype, 'isSubsetOf', function isSubsetOf(other) {
  return [...this].every((value) => other.has(value));
});
define(SetPrototype, 'isSupersetOf', function isSupersetOf(other) {
  return [...iterate(other.keys())].every((value) => this.has(value));
});
define(SetPrototype, 'isDisjointFrom', function isDisjointFrom(other) {
  return ![...this].some((value) => other.has(value));
});

// Map and WeakMap upserts (proposal-upsert; not in Node 20 or 22).
for (const { prototype } of [Map, WeakMap]) {
  define(prototype, 'getOrInsert', function getOrInsert(key, value) {
    if (!this.has(key)) this.set(key, value);
    return this.get(key);
  });
  define(prototype, 'getOrInsertComputed', function getOrInsertComputed(key, compute) {
    if (!this.has(key)) this.set(key, compute(key));
    return this.get(key);
  });
}

// ArrayBuffer#transfer (Node 21): a copy of the bytes into a new (charged) buffer; the old one stays attached.
function transfer(length = this.byteLength) {
  const copy = new ArrayBuffer(length);
  new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
  return copy;
}
define(ArrayBuffer.prototype, 'transfer', transfer);
define(ArrayBuffer.prototype, 'transferToFixedLength', transfer);

// Uint8Array base64 and hex (not in Node 20 or 22), through Buffer.
define(Uint8Array, 'fromBase64', (text, options) => new Uint8Array(Buffer.from(text, options?.alphabet ?? 'base64')));
define(Uint8Array.prototype, 'toBase64', function toBase64(options) {
  return Buffer.from(this.buffer, this.byteOffset, this.length).toString(options?.alphabet ?? 'base64');
});
define(Uint8Array.prototype, 'toHex', function toHex() {
  return Buffer.from(this.buffer, this.byteOffset, this.length).toString('hex');
});

// Promises (Node 22) and URL.parse (Node 20.18).
define(Promise, 'withResolvers', () => {
  let resolve;
  let reject;
  const promise = new Promise((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
});
define(Promise, 'try', (fn, ...args) => new Promise((resolve) => resolve(fn(...args))));
define(URL, 'parse', (url, base) => {
  try {
    return new URL(url, base);
  } catch {
    return null;
  }
});
