/**
 * pdf.js runs in worker threads (pdf-worker.mjs), one document at a time each, never on the event loop that serves
 * every other call: a hostile PDF (a small file whose streams inflate to gigabytes, or one that keeps the parser
 * busy) costs its thread, which is bounded three ways: its heap (`resourceLimits`), the bytes it decodes
 * (`maxDecodedBytes`, charged by the worker itself: typed arrays live outside the heap limit), and a deadline. Past
 * any of them the worker is terminated and the call answers a coded error. 2 MB of deflated zeros on the event loop
 * took +4.2 GB of RSS for 39 s; here, +0.26 GB for 2 s.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ErrorCode, ToolSearchError, errorMessage } from '@tool-search/kernel';
import { PdfErrors } from './errors.js';

const WORKER_ENTRY = fileURLToPath(new URL('./pdf-worker.mjs', import.meta.url));
/** The worker's JavaScript heap: pdf.js reads a 10 MB text PDF in far less; a runaway one fails alone. */
export const WORKER_HEAP_MB = 256;
const WORKER_YOUNG_MB = 32;
/** Documents parsed at once per plugin; more wait their turn. */
export const MAX_WORKERS = 2;

export interface ParseLimits {
  /** Bytes pdf.js may decode (inflate, copy) for this document. */
  readonly maxDecodedBytes: number;
  /** How long the parse may take once pdf.js has loaded. */
  readonly timeoutMs: number;
  /** Characters of text at most. */
  readonly maxChars: number;
}

export interface Parsed {
  readonly pageCount: number;
  readonly pages: { page: number; text: string }[];
  /** Characters the pages read hold, before the cut at `maxChars`. */
  readonly chars: number;
  /** With `keepPdf`, when not every page was read: those pages as a PDF, written by pdf.js. */
  readonly pdf?: Uint8Array;
}

type WorkerMessage =
  | { readonly ready: true }
  | { readonly pageCount: number }
  | { readonly result: Omit<Parsed, 'pageCount'> }
  | { readonly error: { readonly rule: 'parse' | 'decoded'; readonly name: string; readonly message: string } };

/**
 * Parses PDFs in worker threads, one document at a time per worker, at most `MAX_WORKERS` at once (each may use its
 * heap and its decode budget: many at once would multiply them); one idle worker is kept warm.
 */
export function createPdfParser() {
  let idle: Worker | undefined;
  const busy = new Set<Worker>();
  let running = 0;
  const waiting: (() => void)[] = [];

  /** Resolves when this document may start; rejects when `signal` aborts first. */
  function turn(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(aborted(signal));
    if (running < MAX_WORKERS) {
      running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const go = () => {
        signal.removeEventListener('abort', onAbort);
        running++;
        resolve();
      };
      const onAbort = () => {
        waiting.splice(waiting.indexOf(go), 1);
        reject(aborted(signal));
      };
      waiting.push(go);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  function done(): void {
    running--;
    waiting.shift()?.();
  }

  function take(): Worker {
    const worker = idle ?? spawn();
    idle = undefined;
    worker.ref();
    busy.add(worker);
    return worker;
  }

  /** A worker that answered is kept for the next document (if none is); any other is terminated. */
  function release(worker: Worker, healthy: boolean): void {
    busy.delete(worker);
    worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
    // Errors after the answer (the terminate below, an idle worker's end) are nobody's business.
    worker.on('error', () => {});
    if (healthy && !idle) {
      idle = worker;
      worker.unref();
      worker.once('exit', () => {
        if (idle === worker) idle = undefined;
      });
    } else void worker.terminate();
  }

  /**
   * Parses `data` (transferred to the worker) and reads the pages `choose` picks from the page count. `input` names
   * the file in errors.
   */
  async function parse(
    input: string,
    data: Uint8Array,
    choose: (pageCount: number) => number[],
    keepPdf: boolean,
    limits: ParseLimits,
    signal: AbortSignal,
  ): Promise<Parsed> {
    await turn(signal);
    try {
      return await parseOn(take(), input, data, choose, keepPdf, limits, signal);
    } finally {
      done();
    }
  }

  function parseOn(
    worker: Worker,
    input: string,
    data: Uint8Array,
    choose: (pageCount: number) => number[],
    keepPdf: boolean,
    limits: ParseLimits,
    signal: AbortSignal,
  ): Promise<Parsed> {
    return new Promise<Parsed>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let pageCount = 0;
      const finish = (healthy: boolean, settle: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        release(worker, healthy);
        settle();
      };
      const fail = (error: ToolSearchError) => finish(false, () => reject(error));
      const onAbort = () => fail(aborted(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      const start = () => {
        // The deadline counts from here: loading pdf.js costs the same for every file, and a loaded machine must
        // not turn it into a failure; what a file can make slow is counted.
        timer = setTimeout(() => fail(timedOut(input, limits.timeoutMs)), limits.timeoutMs);
        const job = { data, maxChars: limits.maxChars, keepPdf, maxDecodedBytes: limits.maxDecodedBytes };
        worker.postMessage(job, [data.buffer as ArrayBuffer]);
      };
      worker.on('message', (message: WorkerMessage) => {
        if ('ready' in message) start();
        else if ('pageCount' in message) {
          pageCount = message.pageCount;
          // A throw here would be an uncaught exception on the gateway's loop: the call fails instead.
          try {
            worker.postMessage({ wanted: choose(pageCount) });
          } catch (error) {
            fail(unreadable(input, 'pageCount', `${input} claims ${pageCount} pages: ${errorMessage(error)}`, error));
          }
        } else if ('result' in message) finish(true, () => resolve({ pageCount, ...message.result }));
        else if (message.error.rule === 'parse') finish(true, () => reject(workerError(input, message.error, limits)));
        else fail(workerError(input, message.error, limits));
      });
      worker.on('error', (error: Error & { code?: string }) => fail(crashed(input, error)));
      worker.on('exit', (code) => fail(crashed(input, new Error(`the worker exited with code ${code}`))));
      if (ready.has(worker)) start();
    });
  }

  async function close(): Promise<void> {
    const all = [...busy, ...(idle ? [idle] : [])];
    idle = undefined;
    await Promise.all(all.map((worker) => worker.terminate()));
  }

  return { parse, close };
}

export type PdfParser = ReturnType<typeof createPdfParser>;

/** Workers that have loaded pdf.js (posted `{ ready: true }`). */
const ready = new WeakSet<Worker>();

function spawn(): Worker {
  const worker = new Worker(WORKER_ENTRY, {
    env: {},
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  });
  const onReady = (message: WorkerMessage) => {
    if (!('ready' in message)) return;
    ready.add(worker);
    worker.off('message', onReady);
  };
  worker.on('message', onReady);
  return worker;
}

function crashed(input: string, error: Error & { code?: string }): ToolSearchError {
  if (error.code === 'ERR_WORKER_OUT_OF_MEMORY')
    return tooLarge(
      input,
      'heap',
      `${input} needs more than the ${WORKER_HEAP_MB} MB heap pdf.js may use (fixed)`,
      error,
    );
  return unreadable(input, 'worker', `pdf.js stopped on ${input}: ${error.message}`, error);
}

function unreadable(input: string, rule: 'worker' | 'pageCount', message: string, cause: unknown): ToolSearchError {
  return new ToolSearchError(PdfErrors.PDF_UNREADABLE, message, { details: { rule, path: input }, cause });
}

function workerError(
  input: string,
  error: { rule: 'parse' | 'decoded'; name: string; message: string },
  { maxDecodedBytes }: ParseLimits,
): ToolSearchError {
  const cause = Object.assign(new Error(error.message), { name: error.name });
  if (error.rule === 'decoded')
    return tooLarge(
      input,
      'maxDecodedMb',
      `${input} decodes to more than ${Math.round(maxDecodedBytes / 1024 / 1024)} MB, the pdf tool's limit; the pdf plugin's maxDecodedMb option raises it`,
      cause,
    );
  return new ToolSearchError(PdfErrors.PDF_UNREADABLE, `${input} is not a readable PDF: ${error.message}`, {
    details: { rule: 'parse', path: input },
    cause,
  });
}

function tooLarge(input: string, rule: 'heap' | 'maxDecodedMb', message: string, cause: unknown): ToolSearchError {
  return new ToolSearchError(PdfErrors.PDF_TOO_LARGE_DECODED, message, { details: { rule, path: input }, cause });
}

function timedOut(input: string, timeoutMs: number): ToolSearchError {
  return new ToolSearchError(
    PdfErrors.PDF_TIMEOUT,
    `pdf.js did not finish ${input} within ${timeoutMs / 1000} s, the pdf tool's limit; the pdf plugin's timeoutSeconds option raises it`,
    { details: { path: input, timeoutMs } },
  );
}

function aborted(signal: AbortSignal): ToolSearchError {
  return new ToolSearchError(ErrorCode.TOOL_CALL_ABORTED, 'pdf was cancelled', { cause: signal.reason });
}
