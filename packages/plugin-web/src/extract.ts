/**
 * Readable content from a fetched page. Plain text, JSON and XML are returned as they are. HTML goes to a worker
 * thread (extract-worker.mjs: linkedom parses, Readability picks the main content, turndown writes markdown) under
 * the fetch's own deadline: a hostile page (deeply nested `<div>`s make linkedom and Readability superlinear) costs
 * that thread, never the event loop that serves every other call, and the worker is terminated at the deadline.
 * The worker posts a cheap stripped-text result first; at the deadline that one is returned (`bounded: 'deadline'`),
 * and only a worker that produced nothing at all ends in WEB_EXTRACT_FAILED.
 */
import { NetGuardErrors } from '@tool-search/net-guard';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { WebErrors } from './errors.js';

export type ExtractMode = 'markdown' | 'text';

export interface Extracted {
  readonly title?: string;
  readonly text: string;
  /**
   * `readability`, `html` (Readability found no article, or the page had too many elements: the whole body),
   * `stripped` (tags removed without a DOM: the page nested deeper than the parser is trusted with, or the deadline
   * came first), or `raw` (not HTML).
   */
  readonly extractor: 'readability' | 'html' | 'stripped' | 'raw';
  /** Why a cheaper extraction was used: `depth`, `elements` or `deadline`. */
  readonly bounded?: 'depth' | 'elements' | 'deadline';
}

const WORKER_ENTRY = fileURLToPath(new URL('./extract-worker.mjs', import.meta.url));
/** Heap of one extraction worker: a 2 MB page parses in far less; a runaway one fails alone. */
const WORKER_HEAP_MB = 512;

export function isHtml(body: string, contentType: string): boolean {
  const type = mediaType(contentType);
  return (
    type === 'text/html' ||
    type === 'application/xhtml+xml' ||
    (type === '' && /^\s*<(!doctype html|html)/i.test(body.slice(0, 1024)))
  );
}

/** Non-HTML content, checked and returned as it is (no parsing: cheap on the main thread). */
export function extractRaw(body: string, contentType: string): Extracted {
  const type = mediaType(contentType);
  if (type && !/^text\/|\/json$|\+json$|\/xml$|\+xml$|^application\/javascript$/.test(type)) {
    throw new ToolSearchError(
      NetGuardErrors.FETCH_FAILED,
      `web_fetch cannot read ${type} content; it reads HTML, text, JSON and XML`,
      { details: { rule: 'contentType', contentType: type } },
    );
  }
  return { text: body, extractor: 'raw' };
}

/** Runs HTML extractions in worker threads; one idle worker is kept warm. */
export function createExtractor() {
  let idle: Worker | undefined;
  const busy = new Set<Worker>();
  let ids = 0;

  function take(): Worker {
    const worker = idle ?? spawn();
    idle = undefined;
    worker.ref();
    busy.add(worker);
    return worker;
  }

  function release(worker: Worker, healthy: boolean): void {
    busy.delete(worker);
    worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
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
   * Extracts HTML within `deadlineMs` (or until `signal` aborts). The deadline counts from when the worker has
   * loaded its modules: a cold start is the same for every page, and a loaded machine must not turn it into a
   * failure; what a page can make slow is counted.
   */
  async function extractHtml(
    body: string,
    mode: ExtractMode,
    deadlineMs: number,
    signal: AbortSignal,
  ): Promise<Extracted> {
    if (signal.aborted) throw aborted(signal);
    const worker = take();
    try {
      await readiness.get(worker);
    } catch (error) {
      release(worker, false);
      throw error;
    }
    const id = ++ids;
    return new Promise<Extracted>((resolve, reject) => {
      let provisional: Extracted | undefined;
      const finish = (healthy: boolean, settle: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        release(worker, healthy);
        settle();
      };
      const onDeadline = () =>
        finish(false, () =>
          provisional
            ? resolve({ ...provisional, extractor: 'stripped', bounded: 'deadline' })
            : reject(
                new ToolSearchError(
                  WebErrors.WEB_EXTRACT_FAILED,
                  `web_fetch could not extract the page within its deadline (${deadlineMs} ms)`,
                  { details: { rule: 'timeout', deadlineMs } },
                ),
              ),
        );
      const onAbort = () => finish(false, () => reject(aborted(signal)));
      const timer = setTimeout(onDeadline, Math.max(0, deadlineMs));
      signal.addEventListener('abort', onAbort, { once: true });
      worker.on(
        'message',
        (message: {
          id: number;
          provisional?: Extracted;
          result?: Extracted;
          error?: { name?: string; message: string };
        }) => {
          if (message.id !== id) return;
          if (message.provisional) provisional = message.provisional;
          else if (message.result) finish(true, () => resolve(message.result!));
          else if (message.error) {
            const cause = Object.assign(new Error(message.error.message), { name: message.error.name ?? 'Error' });
            finish(true, () =>
              reject(
                new ToolSearchError(
                  WebErrors.WEB_EXTRACT_FAILED,
                  `web_fetch could not extract the page: ${message.error!.message}`,
                  { details: { rule: 'error' }, cause },
                ),
              ),
            );
          }
        },
      );
      const onCrash = (cause: unknown) =>
        finish(false, () =>
          reject(
            new ToolSearchError(
              WebErrors.WEB_EXTRACT_FAILED,
              "web_fetch's extraction worker stopped (out of memory?)",
              { details: { rule: 'worker' }, cause },
            ),
          ),
        );
      worker.on('error', onCrash);
      worker.on('exit', (code) => onCrash(new Error(`worker exited with code ${code}`)));
      worker.postMessage({ id, body, mode });
    });
  }

  async function close(): Promise<void> {
    const all = [...busy, ...(idle ? [idle] : [])];
    idle = undefined;
    await Promise.all(all.map((worker) => worker.terminate()));
  }

  return { extractHtml, close };
}

/** Resolves once a worker has loaded its modules (it posts `{ ready: true }`). */
const readiness = new WeakMap<Worker, Promise<void>>();

function spawn(): Worker {
  const worker = new Worker(WORKER_ENTRY, {
    env: {},
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  worker.on('error', () => {});
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: { ready?: boolean }) => {
      if (!message.ready) return;
      worker.off('message', onMessage).off('error', reject).off('exit', onExit);
      resolve();
    };
    const onExit = (code: number) =>
      reject(
        new ToolSearchError(
          WebErrors.WEB_EXTRACT_FAILED,
          `web_fetch's extraction worker did not start (exit code ${code})`,
          { details: { rule: 'worker' } },
        ),
      );
    worker.on('message', onMessage).once('error', reject).once('exit', onExit);
  });
  ready.catch(() => {}); // observed here so an early exit is no unhandled rejection; the caller awaiting `ready` gets it
  readiness.set(worker, ready);
  return worker;
}

function aborted(signal: AbortSignal): ToolSearchError {
  return new ToolSearchError(ErrorCode.TOOL_CALL_ABORTED, 'web_fetch was cancelled', { cause: signal.reason });
}

function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}
