/**
 * The QuickJS backend, parent side: each run gets a FRESH QuickJS runtime and
 * context inside a worker thread (quickjs-worker.mjs), and speaks the Node
 * child's protocol (`SandboxChild`), so `runCode` serves both backends alike.
 * A worker whose run ended cleanly is kept for the next run (the WebAssembly
 * module stays loaded: a run costs a runtime, not a thread); it frees a run
 * that reported `done` by itself and says `ended`, and is asked to (`end`)
 * when the run was stopped first. One that does not say `ended` within a
 * grace (a loop still spinning past the wall clock or after the result) or
 * that crashed is terminated, which stops it wherever it is. Every message
 * from a worker is parsed into the protocol's closed set, as child stdout is.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ChildEvent, ChildExit, SandboxChild } from './process.js';
import { parseChildMessage, type ChildLimits, type ParentMessage } from './protocol.js';

export interface QuickJSOptions {
  readonly memoryMb: number;
  /** Wall clock of the run, also enforced inside by the interpreter's interrupt handler. */
  readonly timeoutMs: number;
  /** Stack limit of the interpreter (default 256 KiB). */
  readonly stackBytes?: number;
  /**
   * Idle workers kept for later runs (default 8): the plugin passes its `maxConcurrent`, so under that many
   * concurrent runs every run finds a worker instead of a burst starting (and then terminating) new ones.
   */
  readonly keepIdle?: number;
}

const WORKER_ENTRY = fileURLToPath(new URL('./quickjs-worker.mjs', import.meta.url));
const DEFAULT_STACK_BYTES = 256 * 1024;
/**
 * How long a worker may take to free its runtime after the run before it is terminated. Freeing takes well under a
 * millisecond; the grace is for a loaded machine, where the worker thread may wait that long for a core (at 100 ms,
 * 20 concurrent sessions on 2 busy cores terminated and restarted a worker every ten runs).
 */
const END_GRACE_MS = 1000;
const DEFAULT_KEEP_IDLE = 8;
/** The largest `keepIdle` asked for in this process: workers are shared by every plugin and `runCode` here. */
let keepIdle = DEFAULT_KEEP_IDLE;
/** Each worker's own heap; the interpreter's memory is its runtime limit inside the WebAssembly memory. */
const WORKER_HEAP_MB = 64;
const idle: Worker[] = [];
/** The `memoryMb` each worker's WebAssembly memory was sized for. */
const memoryOf = new WeakMap<Worker, number>();

type WorkerMessage =
  | { readonly type: 'message'; readonly message: unknown }
  | { readonly type: 'crash'; readonly reason: string }
  | { readonly type: 'ended'; readonly seq: number };
/** Numbers the runs, so a worker's `ended` is matched to the run it freed. */
let runs = 0;

export function createQuickJSSandbox(options: QuickJSOptions): SandboxChild {
  if (options.keepIdle !== undefined && options.keepIdle > keepIdle) keepIdle = Math.floor(options.keepIdle);
  // No execArgv: the parent's flags (--input-type, --expose-gc, loaders) are not the worker's business.
  // A worker's memory maximum is fixed when it starts: only one made for this memory limit serves the run.
  // Of those, the one idle longest: the one that just came back may still be bootstrapping its next runtime.
  const at = idle.findIndex((candidate) => memoryOf.get(candidate) === options.memoryMb);
  const worker = at === -1 ? startWorker(runOptions(options)) : idle.splice(at, 1)[0]!;
  worker.ref();
  const seq = ++runs;
  // The worker frees a run that reported `done` by itself: then nobody needs to ask it to.
  let reportedDone = false;
  // …and may say so before the caller is through with the run.
  let freed = false;
  const queue: ChildEvent[] = [];
  let listener: ((event: ChildEvent) => void) | undefined;
  let finished: ChildExit | undefined;
  let resolveExit: (exit: ChildExit) => void = () => {};
  const exited = new Promise<ChildExit>((resolve) => (resolveExit = resolve));

  const emit = (event: ChildEvent) => (listener ? listener(event) : queue.push(event));
  const detach = () => {
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
  };
  /** `recycled`: recycle() owns the worker now and decides its fate. */
  const finish = (exit: ChildExit, fate: 'reuse' | 'terminate' | 'recycled') => {
    if (finished) return;
    finished = exit;
    detach();
    if (fate !== 'recycled') release(worker, fate === 'reuse');
    emit({ type: 'exit', exit });
    resolveExit(exit);
  };
  const crash = (stderr: string) => finish({ code: 134, signal: null, stderr }, 'terminate');

  function onMessage(raw: WorkerMessage) {
    if (raw.type === 'ended') {
      if (raw.seq === seq) freed = true;
      return;
    }
    if (finished) return;
    if (raw.type === 'crash') return crash(String(raw.reason).slice(0, 500));
    const message = raw.type === 'message' ? parseChildMessage(JSON.stringify(raw.message)) : undefined;
    if (!message)
      return finish(
        {
          code: null,
          signal: 'SIGKILL',
          stderr: '',
          violation: 'the sandbox sent a message outside the bridge protocol',
        },
        'terminate',
      );
    if (message.t === 'done') reportedDone = true;
    emit({ type: 'message', message });
  }
  function onError(error: Error) {
    crash(`the interpreter thread failed: ${error.message}`);
  }
  function onExit(code: number) {
    crash(`the interpreter thread exited (code ${code})`);
  }
  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);

  return {
    pid: undefined,
    ready: Promise.resolve(),
    exited,
    get alive() {
      return !finished;
    },
    listen(next) {
      listener = next;
      for (const event of queue.splice(0)) next(event);
    },
    send(message: ParentMessage) {
      if (finished) return;
      if (message.t === 'run')
        worker.postMessage({
          type: 'run',
          seq,
          ...runOptions(options),
          code: message.code,
          limits: message.limits satisfies ChildLimits,
        });
      else worker.postMessage({ type: 'reply', message });
    },
    kill() {
      if (!finished) {
        // The run is over for its caller now; the worker frees its runtime and rejoins the idle set on its own.
        if (freed) finish({ code: null, signal: 'SIGKILL', stderr: '' }, 'reuse');
        else {
          recycle(worker, seq, !reportedDone, detach);
          finish({ code: null, signal: 'SIGKILL', stderr: '' }, 'recycled');
        }
      }
      return exited;
    },
  };
}

/** `limits` let the worker bootstrap its first runtime before the first run arrives. */
function startWorker(limits: ReturnType<typeof runOptions>): Worker {
  const workerData = { ...limits, wasmModule: compiledModule() };
  const worker = new Worker(WORKER_ENTRY, {
    workerData,
    env: {},
    execArgv: [],
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  memoryOf.set(worker, limits.memoryMb);
  // Between runs nobody else listens: an idle worker that fails or exits just leaves the idle set.
  worker.on('error', () => {});
  worker.on('exit', () => {
    const at = idle.indexOf(worker);
    if (at !== -1) idle.splice(at, 1);
  });
  return worker;
}

/**
 * Waits for a worker to free run `seq` (asking it to when `ask`: a run stopped before it was done); it is reused
 * once it says so, terminated if it does not within the grace (a loop still spinning after the run).
 */
function recycle(worker: Worker, seq: number, ask: boolean, detach: () => void): void {
  detach();
  const timer = setTimeout(() => {
    // Terminated for good: an `ended` still in flight must not put it back in the idle set while it exits.
    worker.off('message', onEnded);
    void worker.terminate();
  }, END_GRACE_MS);
  const onEnded = (message: WorkerMessage) => {
    if ((message.type !== 'ended' || message.seq !== seq) && message.type !== 'crash') return;
    worker.off('message', onEnded);
    clearTimeout(timer);
    release(worker, message.type === 'ended');
  };
  worker.on('message', onEnded);
  if (ask) worker.postMessage({ type: 'end', seq });
}

/** A worker whose run was freed rejoins the idle set (while it has room); any other is terminated. */
function release(worker: Worker, reusable: boolean): void {
  if (reusable && idle.length < keepIdle) {
    worker.unref();
    idle.push(worker);
  } else void worker.terminate();
}

function runOptions(options: QuickJSOptions) {
  return {
    memoryMb: options.memoryMb,
    stackBytes: options.stackBytes ?? DEFAULT_STACK_BYTES,
    timeoutMs: options.timeoutMs,
  };
}

/** `null`: it could not be compiled here (each worker then compiles its own). */
let compiled: WasmModule | null | undefined;
/** A compiled `WebAssembly.Module` (this package's TypeScript lib has no WebAssembly types; Node has the global). */
type WasmModule = object;
const Wasm = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => WasmModule } }).WebAssembly;
/**
 * QuickJS's WebAssembly module, compiled once per process and shared with every worker (a `WebAssembly.Module`
 * crosses to a worker without a copy or a recompile): a worker started under load pays for an instance, not for
 * compiling 0.5 MB of WebAssembly on a busy core. The worker compiles its own when this is not there.
 */
function compiledModule(): WasmModule | undefined {
  if (compiled !== undefined) return compiled ?? undefined;
  try {
    const path = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
    compiled = new Wasm.Module(readFileSync(path));
  } catch {
    compiled = null;
  }
  return compiled ?? undefined;
}

/** How many workers wait idle for a run (tests, benchmarks). */
export function idleQuickJSWorkers(): number {
  return idle.length;
}

/** Terminates the idle workers (tests, shutdown); busy ones end with their run. */
export async function drainQuickJSWorkers(): Promise<void> {
  await Promise.all(idle.splice(0).map((worker) => worker.terminate()));
}
