/*
 * The QuickJS backend's worker thread. Plain JavaScript on purpose (like
 * child.cjs): it runs from src (tests) and from dist unchanged. One worker
 * hosts one run at a time, each in a FRESH QuickJS runtime + context; the
 * parent reuses a worker whose run ended cleanly and terminates one that did
 * not (wall clock, crash), which stops even a builtin-heavy loop the
 * interpreter's interrupt handler is not polled in.
 *
 * Inside the runtime: the same bootstrap (`openclaw`, `console`) and the same
 * host channel as the Node child (from child.cjs), a memory limit, a stack
 * limit, an interrupt handler (wall clock, async continuations included), no
 * file, network, process, timer or wasm API, and code generation from strings
 * closed. QuickJS's JSON recurses in C on this thread's stack without a depth
 * check, so JSON is depth-bounded in the runtime and replies are checked here.
 *
 * Parent → worker: { type: 'run', seq, memoryMb, stackBytes, timeoutMs, code, limits } | { type: 'reply', message } | { type: 'end' }
 * Worker → parent: { type: 'message', message } (child protocol) | { type: 'crash', reason } | { type: 'ended', seq }
 *
 * A run that reported `done` is freed by the worker on its own, which then says `ended` (the parent does not
 * ask: one message less on every run's path); `end` frees a run the parent stopped before it was done.
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';

const shared = createRequire(import.meta.url)('./child.cjs');
const BOOTSTRAP = `(${shared.bootstrap.toString()})`;
const MIB = 1024 * 1024;
/** Promise jobs per slice before this thread's event loop reads the next message (an `end` must get through). */
const JOBS_PER_SLICE = 2000;
const MAX_JSON_DEPTH = 400;

/** `eval`, `Function` and the async/generator function constructors throw `EvalError`, as in the Node child's context. */
const CODE_GENERATION_BAN = `(() => {
  'use strict';
  const banned = function Function() { throw new EvalError('Code generation from strings disallowed for this context'); };
  const prototypes = [Function.prototype, Object.getPrototypeOf(async function () {}), Object.getPrototypeOf(function* () {}), Object.getPrototypeOf(async function* () {})];
  for (const prototype of prototypes) Object.defineProperty(prototype, 'constructor', { value: banned, writable: false, enumerable: false, configurable: false });
  Object.defineProperty(globalThis, 'Function', { value: banned, writable: false, enumerable: false, configurable: false });
  const bannedEval = () => { throw new EvalError('Code generation from strings disallowed for this context'); };
  Object.defineProperty(globalThis, 'eval', { value: bannedEval, writable: false, enumerable: false, configurable: false });
})()`;

/** Before the bootstrap (which captures `JSON.stringify`): a depth-bounded stringify. */
const JSON_STRINGIFY_GUARD = `(() => {
  'use strict';
  const original = JSON.stringify;
  const isArray = Array.isArray;
  const depths = new WeakMap();
  const stringify = function stringify(value, replacer, space) {
    const user = typeof replacer === 'function' ? replacer : undefined;
    const keep = isArray(replacer) ? replacer.map(String) : undefined;
    return original(value, function (key, raw) {
      if (keep && key !== '' && !isArray(this) && !keep.includes(key)) return undefined;
      const next = user ? user.call(this, key, raw) : raw;
      if (next !== null && typeof next === 'object') {
        const depth = (depths.get(this) || 0) + 1;
        if (depth > ${MAX_JSON_DEPTH}) throw new RangeError('the value nests too deeply to serialize');
        depths.set(next, depth);
      }
      return next;
    }, space);
  };
  Object.defineProperty(JSON, 'stringify', { value: stringify, writable: true, enumerable: false, configurable: true });
})()`;

/** After the bootstrap (its replies are checked here): a depth-bounded parse for the code. */
const JSON_PARSE_GUARD = `(() => {
  'use strict';
  const original = JSON.parse;
  const parse = function parse(text, reviver) {
    const s = String(text);
    let depth = 0, inString = false;
    for (let i = 0; i < s.length; i += 1) {
      const c = s.charCodeAt(i);
      if (inString) { if (c === 92) i += 1; else if (c === 34) inString = false; }
      else if (c === 34) inString = true;
      else if (c === 91 || c === 123) { depth += 1; if (depth > ${MAX_JSON_DEPTH}) throw new SyntaxError('JSON nests too deeply'); }
      else if (c === 93 || c === 125) depth -= 1;
    }
    return original(s, reviver);
  };
  Object.defineProperty(JSON, 'parse', { value: parse, writable: true, enumerable: false, configurable: true });
})()`;

/** WebAssembly pages (64 KiB) the module itself needs before any runtime: its static data and stack. */
const BASE_PAGES = 256;
/** Room above `memoryMb` for the runtime prepared for the next run and the allocator's own overhead. */
const HEADROOM_MB = 16;
const PAGE = 64 * 1024;
/**
 * The interpreter's whole memory, with a hard maximum. `setMemoryLimit` alone bounds single allocations only (the
 * emscripten build never adds large strings or buffers to its running total, quickjs-emscripten#271): a fixed
 * WebAssembly memory is the bound that holds — past it every allocation fails as QuickJS's "out of memory".
 */
const memoryMb = workerData && typeof workerData.memoryMb === 'number' ? workerData.memoryMb : 64;
const wasmMemory = new WebAssembly.Memory({
  initial: BASE_PAGES,
  maximum: BASE_PAGES + Math.ceil(((memoryMb + HEADROOM_MB) * MIB) / PAGE),
});
/** The parent compiles the WebAssembly module once per process and hands it to each worker: no compile per worker. */
const wasmModule =
  workerData && workerData.wasmModule instanceof WebAssembly.Module ? workerData.wasmModule : undefined;
const modulePromise = newQuickJSWASMModuleFromVariant(
  newVariant(variant, wasmModule ? { wasmMemory, wasmModule } : { wasmMemory }),
);
/** The current run, if any; messages for another state are ignored. */
let current;
/**
 * The next run's runtime, made and bootstrapped while this worker is idle (after a run ended, or at start with the
 * limits the parent passed in `workerData`): still a fresh runtime per run, but its setup is off the run's clock.
 */
let prepared;

if (parentPort) {
  const post = (out) => parentPort.postMessage(out);
  const prepareNext = (limits) =>
    setImmediate(async () => {
      const module = await modulePromise;
      if (!current && !prepared) prepared = prepareRun(module, limits, post);
    });
  if (workerData && typeof workerData.memoryMb === 'number') prepareNext(workerData);
  /** Frees the current run once (asked by `end`, or on its own after `done`), says so, and prepares the next one. */
  const endRun = (run) => {
    if (!run || run !== current) return;
    current = undefined;
    try {
      run.end();
    } catch (error) {
      // A runtime that cannot be freed cleanly: this worker is not reused.
      post({ type: 'crash', reason: `the interpreter failed to shut down: ${error && error.message}` });
      return;
    }
    post({ type: 'ended', seq: run.seq });
    prepareNext(run.limits);
  };
  parentPort.on('message', async (message) => {
    if (message.type === 'run' && !current) {
      const module = await modulePromise;
      const run = takePrepared(message) ?? prepareRun(module, message, post);
      current = run;
      run.seq = message.seq;
      // Not inside the interpreter's call that reported it: a runtime is freed from the top of this thread's stack.
      run.onDone = () => setImmediate(() => endRun(run));
      run.begin(message);
    } else if (message.type === 'reply' && current) {
      current.reply(message.message);
    } else if (message.type === 'end') {
      if (current) endRun(current);
      else post({ type: 'ended', seq: message.seq });
    }
  });
}

/** The prepared runtime when it was made with this run's memory and stack limits; otherwise it is freed. */
function takePrepared(options) {
  const ready = prepared;
  prepared = undefined;
  if (!ready) return undefined;
  if (ready.limits.memoryMb === options.memoryMb && ready.limits.stackBytes === options.stackBytes) return ready;
  ready.end();
  return undefined;
}

function prepareRun(module, options, post) {
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(Math.max(8, Math.floor(options.memoryMb)) * MIB);
  runtime.setMaxStackSize(options.stackBytes);
  // Set when the run begins; the bootstrap before it is ours and finite.
  let deadline = Infinity;
  let stopped = false;
  let timedOut = false;
  // The code reported its result: async work it left running stops, as the Node child is killed then.
  let finished = false;
  runtime.setInterruptHandler(() => {
    if (Date.now() > deadline) timedOut = true;
    return stopped || timedOut || finished;
  });
  const context = runtime.newContext();
  const handles = [];
  const keep = (handle) => (handles.push(handle), handle);
  const crash = (reason) => {
    if (stopped) return;
    // Its state is not trusted after this: nothing is disposed, the parent terminates this worker.
    stopped = true;
    post({ type: 'crash', reason });
  };
  const host = shared.createHostChannel((message) => {
    if (stopped || timedOut) return;
    if (message.t === 'done') finished = true;
    // The interpreter's allocation failure surfaces as a thrown InternalError: report it as the child's heap limit.
    if (
      message.t === 'done' &&
      !message.ok &&
      message.error.name === 'InternalError' &&
      message.error.message === 'out of memory'
    ) {
      return crash('InternalError: out of memory (heap limit)');
    }
    post({ type: 'message', message });
    if (message.t === 'done') run.onDone?.();
  });
  const guarded = (fn) => {
    try {
      return fn();
    } catch (error) {
      crash(`the interpreter failed: ${error && error.message}`);
      return undefined;
    }
  };
  const settle = (result) => {
    if (!result) return;
    if (result.error) {
      if (isOutOfMemory(context, result.error)) crash('InternalError: out of memory (heap limit)');
      result.error.dispose();
    } else result.value.dispose();
  };

  let api;
  const setup = guarded(() => {
    const channel = keep(
      context.newFunction('channel', (text) =>
        context.newString(host.channel(context.typeof(text) === 'string' ? context.getString(text) : undefined)),
      ),
    );
    context.unwrapResult(context.evalCode(JSON_STRINGIFY_GUARD, 'tool_search_code:json')).dispose();
    const boot = keep(context.unwrapResult(context.evalCode(BOOTSTRAP, 'tool_search_code:bootstrap')));
    const removed = keep(context.newString(shared.REMOVED_GLOBALS));
    const made = keep(context.unwrapResult(context.callFunction(boot, context.undefined, channel, removed)));
    api = { start: keep(context.getProp(made, 'start')), deliver: keep(context.getProp(made, 'deliver')) };
    context.unwrapResult(context.evalCode(JSON_PARSE_GUARD, 'tool_search_code:json')).dispose();
    context.unwrapResult(context.evalCode(CODE_GENERATION_BAN, 'tool_search_code:harden')).dispose();
    return true;
  });

  const pump = () => {
    if (stopped || timedOut || finished) return;
    const jobs = guarded(() => runtime.executePendingJobs(JOBS_PER_SLICE));
    if (!jobs) return;
    let ran = 1;
    if (jobs.error) settle(jobs);
    else ran = jobs.value;
    if (ran > 0) setImmediate(pump);
  };

  const begin = (run) => {
    deadline = Date.now() + run.timeoutMs;
    const limits = shared.readLimits(run.limits);
    host.begin(limits);
    if (!setup || stopped) {
      // A setup that failed while this worker was idle reported to nobody: report it to this run.
      post({ type: 'crash', reason: 'the sandbox setup failed' });
      stopped = true;
      return;
    }
    // The parent's parser already checked that the code is one function body (scan.ts). The head shares the
    // code's first line (QuickJS has no line offset), so stack lines are the user's; columns of line 1 are +20.
    const compiled = guarded(() => context.evalCode(`(async function () {${run.code}\n})`, 'tool_search_code.js'));
    if (compiled && compiled.error) {
      const error = context.dump(compiled.error) || {};
      compiled.error.dispose();
      host.close();
      post({
        type: 'message',
        message: {
          t: 'done',
          ok: false,
          phase: 'compile',
          error: { name: String(error.name || 'SyntaxError'), message: String(error.message || '') },
        },
      });
    } else if (compiled) {
      const fn = keep(compiled.value);
      const numbers = [keep(context.newNumber(limits.maxResultBytes)), keep(context.newNumber(limits.maxLogBytes))];
      settle(guarded(() => context.callFunction(api.start, context.undefined, fn, ...numbers)));
      pump();
    }
  };

  const run = {
    limits: { memoryMb: options.memoryMb, stackBytes: options.stackBytes, timeoutMs: options.timeoutMs },
    /** Set by the message loop: the parent's number for this run, and what to do once it reported `done`. */
    seq: undefined,
    onDone: undefined,
    begin,
    reply(message) {
      if (stopped || host.counters.done) return;
      host.replied();
      let line = JSON.stringify(message);
      if (jsonDepth(line) > MAX_JSON_DEPTH) {
        line = JSON.stringify({
          t: 'reply',
          id: message.id,
          ok: false,
          error: { code: 'CODE_LIMIT_EXCEEDED', message: `the answer nests deeper than ${MAX_JSON_DEPTH} levels` },
        });
      }
      settle(
        guarded(() => {
          const text = context.newString(line);
          const delivered = context.callFunction(api.deliver, context.undefined, text);
          text.dispose();
          return delivered;
        }),
      );
      pump();
    },
    end() {
      if (stopped) return;
      stopped = true;
      for (const handle of handles.splice(0).reverse()) if (handle.alive) handle.dispose();
      context.dispose();
      runtime.dispose();
    },
  };
  return run;
}

function isOutOfMemory(context, error) {
  try {
    const dumped = context.dump(error);
    return Boolean(dumped && dumped.message === 'out of memory');
  } catch {
    return true;
  }
}

/** Nesting depth of JSON text (brackets outside strings). */
function jsonDepth(text) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i += 1;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) deepest = Math.max(deepest, (depth += 1));
    else if (c === 93 || c === 125) depth -= 1;
  }
  return deepest;
}
