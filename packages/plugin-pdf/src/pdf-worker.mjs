// One PDF parsed by pdf.js in a worker thread (see parse.ts): the host gives the thread a heap limit
// (`resourceLimits`) and a deadline, and terminates it when either is hit. Plain JavaScript so the same file runs
// from `src` (tests) and `dist`.
//
// `resourceLimits` bounds the JavaScript heap only: the bytes of typed arrays live outside it, and pdf.js keeps every
// decoded stream in one (a 2 MB file of deflated zeros decodes to 2 GB). So before pdf.js loads, every typed array
// and ArrayBuffer constructor of this thread is replaced by one that charges what it allocates to the document's
// budget (`maxDecodedBytes`); past it, that allocation and every later one throws, and the host answers
// PDF_TOO_LARGE_DECODED. The charge counts allocations, not what is still alive, so it also bounds the work done.
// `DecompressionStream` is removed: pdf.js would inflate through it natively, outside any constructor charged here;
// without it pdf.js inflates in JavaScript, into its own (charged) growing buffer.
//
// pdf.js is unpdf's build of it (one file, no native canvas; see the README): its modern code, so the few newer
// built-ins it calls that Node 20 lacks come from pdf-polyfills.mjs first.
import { parentPort } from 'node:worker_threads';
import './pdf-polyfills.mjs';

/** The current document's budget (loading pdf.js itself is not charged), and what it has used. */
let maxDecodedBytes = Number.POSITIVE_INFINITY;
let charged = 0;
let exceeded = false;

class DecodedTooLarge extends Error {
  name = 'DecodedTooLarge';
}

function charge(bytes) {
  charged += bytes;
  if (charged > maxDecodedBytes) exceeded = true;
  if (exceeded) throw new DecodedTooLarge(`decoded data past ${maxDecodedBytes} bytes`);
}

/** Bytes a typed-array constructor call allocates: a length, or a copy of an array; a view on a buffer is free. */
function allocated(first, bytesPer) {
  if (typeof first === 'number') return first * bytesPer;
  if (first instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && first instanceof SharedArrayBuffer))
    return 0;
  if (first !== null && typeof first === 'object' && typeof first.length === 'number') return first.length * bytesPer;
  return 0;
}

function guard(Native) {
  const bytesPer = Native.BYTES_PER_ELEMENT ?? 1;
  const Guarded = class extends Native {
    constructor(...args) {
      charge(allocated(args[0], bytesPer));
      super(...args);
    }
    // Arrays made elsewhere (a transferred buffer, Node's Buffers) still pass pdf.js's `instanceof` checks.
    static [Symbol.hasInstance](value) {
      return value instanceof Native;
    }
  };
  Object.defineProperty(Guarded, 'name', { value: Native.name });
  globalThis[Native.name] = Guarded;
}

for (const Native of [
  ArrayBuffer,
  Uint8Array,
  Uint8ClampedArray,
  Int8Array,
  Uint16Array,
  Int16Array,
  Uint32Array,
  Int32Array,
  Float32Array,
  Float64Array,
])
  guard(Native);
delete globalThis.DecompressionStream;

const { getDocument } = await import('unpdf/pdfjs');
/** Messages from the host, in order: a document, then the pages to read from it. */
const inbox = [];
let waiting;
parentPort.on('message', (message) => (waiting ? waiting(message) : inbox.push(message)));
const next = () =>
  inbox.length
    ? Promise.resolve(inbox.shift())
    : new Promise((resolve) => {
        waiting = (message) => {
          waiting = undefined;
          resolve(message);
        };
      });

parentPort.postMessage({ ready: true });
// One document at a time, each with a fresh budget; the host terminates this thread after any failure.
for (;;) {
  const job = await next();
  maxDecodedBytes = job.maxDecodedBytes;
  charged = 0;
  exceeded = false;
  try {
    const result = await read(job);
    parentPort.postMessage({ result }, result.pdf ? [result.pdf.buffer] : []);
  } catch (error) {
    parentPort.postMessage({
      error: {
        rule: exceeded ? 'decoded' : 'parse',
        name: error?.name ?? 'Error',
        message: String(error?.message ?? error),
      },
    });
  }
}

/**
 * The document in `data`: its page count goes to the host, which answers with the pages to read (1-based); their
 * text, cut at `maxChars`, and with `keepPdf`, those pages as a PDF.
 */
async function read({ data, maxChars, keepPdf }) {
  const document = await getDocument({
    data,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  try {
    const pageCount = document.numPages;
    parentPort.postMessage({ pageCount });
    const { wanted } = await next();
    const pages = [];
    let chars = 0;
    for (const number of wanted) {
      if (chars >= maxChars) break;
      const content = await (await document.getPage(number)).getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : ''))
        .join('')
        .replace(/[ \t]+\n/g, '\n')
        .trim();
      pages.push({ page: number, text: text.slice(0, maxChars - chars) });
      chars += text.length;
      // pdf.js carries on past a stream it could not decode (an empty page): a spent budget must not pass for one.
      if (exceeded) throw new DecodedTooLarge('decoded data past the budget');
    }
    const all = pages.length === pageCount;
    const pdf =
      keepPdf && !all
        ? await document.extractPages([{ document: null, includePages: pages.map((p) => p.page - 1) }])
        : undefined;
    if (exceeded) throw new DecodedTooLarge('decoded data past the budget');
    return { pages, chars, ...(pdf ? { pdf } : {}) };
  } finally {
    await document.destroy();
  }
}
