'use strict';
/*
 * The code-mode sandbox child. Plain CommonJS on purpose: it runs from src
 * (tests) and from dist unchanged, and under the permission model it may read
 * only this one file, so it requires nothing but built-in modules.
 *
 * Layers inside this process (the parent adds the process-level ones):
 * - the model's code runs in a `vm` context with code generation from strings
 *   and wasm disabled, on a null-prototype global (no host Object.prototype);
 * - everything the code can touch is created by `bootstrap` inside that
 *   context; the host is reached only through `channel(string) -> string`,
 *   a strict host function kept in a closure and never handed to user code;
 * - values cross as JSON text both ways, so each side parses its own objects;
 * - this host side re-checks every message (op names, counts, sizes) before
 *   it is written to the parent, which checks them once more.
 *
 * Protocol: one JSON object per line on stdin/stdout (see protocol.ts).
 */
const fs = require('node:fs');
const vm = require('node:vm');

const OPS = new Set(['search', 'describe', 'call']);
// Taken at start-up, before anything else runs in this process.
const functionToString = Function.prototype.toString;
const reflectApply = Reflect.apply;
const LEVELS = new Set(['log', 'warn', 'error']);
// Removed from the sandbox (below) and frozen in the host realm (further below).
const TYPED_ARRAYS = [
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];
// Globals the bootstrap removes: allocation outside the V8 heap (not bounded by
// --max-old-space-size), wasm, and V8's own inspector console.
const REMOVED_GLOBALS = [
  'WebAssembly',
  'SharedArrayBuffer',
  'Atomics',
  'ArrayBuffer',
  'DataView',
  ...TYPED_ARRAYS,
  'console',
].join(',');

// The host realm's intrinsics, deep-frozen before the child says it is ready (the
// same roots as Node's --frozen-intrinsics, which costs more than the whole run).
const FROZEN_ROOTS = [
  'Object',
  'Function',
  'Boolean',
  'Symbol',
  'Error',
  'AggregateError',
  'EvalError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'TypeError',
  'URIError',
  'Number',
  'BigInt',
  'Math',
  'Date',
  'String',
  'RegExp',
  'Array',
  ...TYPED_ARRAYS,
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Atomics',
  'JSON',
  'WeakRef',
  'FinalizationRegistry',
  'Promise',
  'Reflect',
  'Proxy',
  'Intl',
  'WebAssembly',
  'eval',
  'isFinite',
  'isNaN',
  'parseFloat',
  'parseInt',
  'decodeURI',
  'decodeURIComponent',
  'encodeURI',
  'encodeURIComponent',
  'escape',
  'unescape',
  'console',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'setImmediate',
  'clearImmediate',
  'queueMicrotask',
  'structuredClone',
];

/*
 * Stdio is read and written with blocking fd calls, not process.stdin/stdout:
 * building those pipe streams loads `net` and cost more start-up time than
 * anything else here. The child has nothing to do while it waits for the
 * parent (the code has no timers or I/O of its own), so blocking is fine; the
 * parent's SIGKILL ends it in any state. The fds are blocking (libuv spawns
 * with socketpairs); EAGAIN is handled anyway, by waiting a millisecond.
 */
const STDIN = 0;
const STDOUT = 1;
const READ_CHUNK = 64 * 1024;
const nap = new Int32Array(new SharedArrayBuffer(4));

if (require.main === module) main();
// Loaded with require(): the realm hardening (process-layer tests) and the parts the QuickJS backend shares.
else module.exports = { hardenRealm, bootstrap, createHostChannel, readLimits, REMOVED_GLOBALS };

function main() {
  if (!permissionModelActive()) {
    write({ t: 'fatal', reason: 'the permission model is not active in the sandbox process' });
    process.exit(70);
  }
  // A promise the code left rejected is the code's business, not a reason to crash
  // before the result is reported. The reason (a context object) is never read.
  process.on('unhandledRejection', () => {});
  // Everything that does not depend on the code is done before 'ready', so a warm run is compile + run only.
  const sandbox = prepareSandbox();
  let session;
  const onLine = (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message && message.t === 'run' && !session) session = sandbox.run(message);
    else if (message && message.t === 'reply' && session) session.reply(message, line);
  };
  hardenRealm();
  write({ t: 'ready' });
  readLines(onLine);
}

function permissionModelActive() {
  const permission = process.permission;
  if (!permission || typeof permission.has !== 'function') return false;
  return (
    !permission.has('fs.read', '/') &&
    !permission.has('fs.write', '/') &&
    !permission.has('child') &&
    !permission.has('worker')
  );
}

/**
 * Hardens the host realm of this process (defence in depth: no host object is
 * ever handed to the code). Removes host capabilities the sandbox host never
 * needs (Node 20 has no network permission), then deep-freezes the host's
 * intrinsics, so even a leaked host object could not redefine what the host
 * code calls. No derived-override accessors (unlike --frozen-intrinsics): the
 * host code never overrides an inherited property by assignment.
 */
function hardenRealm() {
  for (const name of ['fetch', 'WebSocket', 'EventSource', 'Request', 'Response', 'Headers', 'FormData']) {
    try {
      delete globalThis[name];
    } catch {
      /* not configurable: nothing to do */
    }
  }
  for (const name of ['binding', '_linkedBinding', 'dlopen']) {
    try {
      process[name] = undefined;
    } catch {
      /* frozen: nothing to do */
    }
  }
  const roots = FROZEN_ROOTS.map((name) => globalThis[name]);
  roots.push(
    // %ThrowTypeError%, the iterator, generator and async function intrinsics: not reachable by name.
    Object.getOwnPropertyDescriptor(Function.prototype, 'caller').get,
    Object.getPrototypeOf([][Symbol.iterator]()),
    Object.getPrototypeOf(''[Symbol.iterator]()),
    Object.getPrototypeOf(new Map()[Symbol.iterator]()),
    Object.getPrototypeOf(new Set()[Symbol.iterator]()),
    Object.getPrototypeOf(/e/[Symbol.matchAll]('')),
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function* () {}),
    Object.getPrototypeOf(async function () {}),
  );
  deepFreeze(roots);
  Object.defineProperty(globalThis, 'globalThis', { value: globalThis, writable: false, configurable: false });
}

/** Freezes every object reachable from `roots` through prototypes and own properties (values, getters, setters). */
function deepFreeze(roots) {
  const isObject = (value) => (typeof value === 'object' && value !== null) || typeof value === 'function';
  const seen = new Set();
  const stack = roots.filter(isObject);
  while (stack.length > 0) {
    const value = stack.pop();
    if (seen.has(value)) continue;
    seen.add(value);
    Object.freeze(value);
    const proto = Object.getPrototypeOf(value);
    if (proto !== null) stack.push(proto);
    const keys = Reflect.ownKeys(value);
    for (let i = 0; i < keys.length; i += 1) {
      const descriptor = Object.getOwnPropertyDescriptor(value, keys[i]);
      if ('value' in descriptor) {
        if (isObject(descriptor.value)) stack.push(descriptor.value);
      } else {
        if (descriptor.get) stack.push(descriptor.get);
        if (descriptor.set) stack.push(descriptor.set);
      }
    }
  }
}

function write(message) {
  const bytes = Buffer.from(JSON.stringify(message) + '\n', 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(STDOUT, bytes, offset, bytes.length - offset);
    } catch (error) {
      if (error && error.code === 'EAGAIN') Atomics.wait(nap, 0, 0, 1);
      // The parent closed the pipe: nothing left to report to.
      else process.exit(0);
    }
  }
}

/**
 * Calls `onLine` with each line from stdin, one read per macrotask: after each
 * read, promise jobs (the code, replies being delivered) run before the next
 * blocking read. A newline byte never occurs inside a UTF-8 sequence, so lines
 * are cut on bytes and decoded whole. End of input (the parent went away) exits.
 */
function readLines(onLine) {
  const chunk = Buffer.allocUnsafe(READ_CHUNK);
  let partial = [];
  const pump = () => {
    let size;
    try {
      size = fs.readSync(STDIN, chunk, 0, READ_CHUNK, null);
    } catch (error) {
      if (error && error.code === 'EAGAIN') {
        Atomics.wait(nap, 0, 0, 1);
        return setImmediate(pump);
      }
      process.exit(0);
    }
    if (size === 0) process.exit(0);
    const data = chunk.subarray(0, size);
    let from = 0;
    let newline = data.indexOf(10, from);
    while (newline !== -1) {
      partial.push(data.subarray(from, newline));
      const line = Buffer.concat(partial).toString('utf8');
      partial = [];
      onLine(line);
      from = newline + 1;
      newline = data.indexOf(10, from);
    }
    // Copied: `chunk` is reused by the next read.
    if (from < size) partial.push(Buffer.from(data.subarray(from)));
    setImmediate(pump);
  };
  pump();
}

/**
 * Builds, before the code is known, the context with `openclaw` and `console`
 * (its bootstrap run), and the empty throwaway context that checks the
 * wrapper. `run(message)` then only compiles and starts the code. Each child
 * serves one run, so both contexts are used once.
 */
function prepareSandbox() {
  const host = createHostChannel(write);
  const { counters, channel } = host;
  let limits;
  const context = vm.createContext(Object.create(null), {
    name: 'tool_search_code',
    codeGeneration: { strings: false, wasm: false },
  });
  const probe = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } });

  const refused = { reply() {} };
  const refuse = (name, text) => {
    counters.done = true;
    write({ t: 'done', ok: false, phase: 'compile', error: { name, message: text } });
    return refused;
  };

  let api;
  let setupError;
  try {
    api = vm.runInContext(`(${bootstrap.toString()})`, context, { filename: 'tool_search_code:bootstrap' })(
      channel,
      REMOVED_GLOBALS,
    );
  } catch (error) {
    setupError = String(error && error.message);
  }
  // Taken before any user code exists; the host never reads context objects afterwards.
  const start = api && api.start;
  const deliver = api && api.deliver;

  return {
    run(message) {
      limits = readLimits(message.limits);
      host.begin(limits);
      if (setupError !== undefined) {
        counters.done = true;
        write({
          t: 'done',
          ok: false,
          phase: 'setup',
          error: { name: 'Error', message: `sandbox setup failed: ${setupError}` },
        });
        return refused;
      }
      const source = `(async function () {\n${String(message.code)}\n})`;
      let script;
      try {
        script = new vm.Script(source, { filename: 'tool_search_code.js', lineOffset: -1 });
      } catch (error) {
        // Compiling throws host-realm errors only (SyntaxError): only their text crosses.
        return refuse(String(error && error.name), String(error && error.message));
      }
      let single = false;
      try {
        single = isSingleFunction(script, source, probe);
      } catch {
        // Code that closed the wrapper threw in the throwaway context: nothing is read from what it threw.
      }
      if (!single)
        return refuse('SyntaxError', 'the code must be a function body; it closes the function it is wrapped in');
      // A lone function expression: evaluating it runs no user code.
      const compiled = script.runInContext(context);
      start(compiled, limits.maxResultBytes, limits.maxLogBytes);

      return {
        reply(reply, line) {
          if (counters.done) return;
          host.replied();
          if (!Number.isSafeInteger(reply.id)) return;
          try {
            deliver(line);
          } catch {
            /* a context error: never inspected by the host */
          }
        },
      };
    },
  };
}

/**
 * The host end of the context's only channel, shared by both sandbox backends
 * (this child and the in-process QuickJS one): counts and caps bridge calls,
 * logs and the result, and turns what the code sends into protocol messages
 * passed to `write`. `channel(string) -> string` is strict and never throws.
 * Until `begin(limits)` it refuses everything.
 */
function createHostChannel(write) {
  let limits;
  const counters = { bridge: 0, pending: 0, logBytes: 0, logLines: 0, logsCut: false, callsCut: false, done: false };

  const channel = function channel(text) {
    try {
      if (typeof text !== 'string' || counters.done || !limits) return 'closed';
      return forward(JSON.parse(text), text);
    } catch {
      return 'invalid';
    }
  };

  function forward(msg, text) {
    if (!msg || typeof msg !== 'object') return 'invalid';
    if (msg.t === 'bridge') {
      if (!OPS.has(msg.op) || !Number.isSafeInteger(msg.id)) return 'invalid';
      if (text.length > limits.maxResultBytes) return 'limit:size';
      if (counters.bridge >= limits.maxBridgeCalls) {
        if (!counters.callsCut) write({ t: 'cut', what: 'calls' });
        counters.callsCut = true;
        return 'limit:total';
      }
      if (counters.pending >= limits.maxPendingCalls) return 'limit:pending';
      counters.bridge += 1;
      counters.pending += 1;
      write({ t: 'bridge', id: msg.id, op: msg.op, payload: msg.payload });
      return 'ok';
    }
    if (msg.t === 'log') {
      if (!LEVELS.has(msg.level) || typeof msg.text !== 'string') return 'invalid';
      // Output is cut: the code stops formatting lines nobody will read.
      if (counters.logsCut) return 'cut';
      const room = limits.maxLogBytes - counters.logBytes;
      if (counters.logLines >= limits.maxLogLines || room <= 0) {
        counters.logsCut = true;
        write({ t: 'cut', what: 'logs' });
        return 'ok';
      }
      let text = msg.text;
      if (Buffer.byteLength(text, 'utf8') > room) {
        text = cutUtf8(text, room);
        counters.logsCut = true;
      }
      counters.logBytes += Buffer.byteLength(text, 'utf8');
      counters.logLines += 1;
      write({ t: 'log', level: msg.level, text });
      if (counters.logsCut) write({ t: 'cut', what: 'logs' });
      return 'ok';
    }
    if (msg.t === 'done') {
      counters.done = true;
      if (msg.ok === true) {
        let json = typeof msg.json === 'string' ? msg.json : undefined;
        let cut = msg.cut === true;
        if (json !== undefined && Buffer.byteLength(json, 'utf8') > limits.maxResultBytes) {
          json = cutUtf8(json, limits.maxResultBytes);
          cut = true;
        }
        write({ t: 'done', ok: true, json, cut });
      } else {
        write({ t: 'done', ok: false, phase: msg.phase === 'result' ? 'result' : 'run', error: plainError(msg.error) });
      }
      return 'ok';
    }
    return 'invalid';
  }

  return {
    channel,
    counters,
    begin(next) {
      limits = next;
    },
    /** A reply reached the code: one call fewer in flight. */
    replied() {
      counters.pending = Math.max(0, counters.pending - 1);
    },
    /** Ends the run before the code did (it was refused): nothing more is forwarded. */
    close() {
      counters.done = true;
    },
  };
}

/**
 * The code is wrapped as `(async function () {\n<code>\n})`; code that closes the
 * wrapper (`}); …; (async function () {`) would run at the script's top level,
 * with host frames below it. The script is first run in an empty, throwaway
 * context: it must evaluate to the one function whose source is the whole
 * wrapper, which proves that nothing else is in the script. Neither `typeof`
 * nor the host's `Function.prototype.toString` runs user code (not even for a proxy).
 */
function isSingleFunction(script, source, probe) {
  const value = script.runInContext(probe);
  return typeof value === 'function' && reflectApply(functionToString, value, []) === source.slice(1, -1);
}

function readLimits(raw) {
  const pick = (value, fallback) => (Number.isSafeInteger(value) && value > 0 ? value : fallback);
  const limits = raw && typeof raw === 'object' ? raw : {};
  return {
    maxBridgeCalls: pick(limits.maxBridgeCalls, 64),
    maxPendingCalls: pick(limits.maxPendingCalls, 8),
    maxLogBytes: pick(limits.maxLogBytes, 16384),
    maxLogLines: pick(limits.maxLogLines, 200),
    maxResultBytes: pick(limits.maxResultBytes, 65536),
  };
}

function plainError(error) {
  const e = error && typeof error === 'object' ? error : {};
  const out = { name: cutUtf8(String(e.name || 'Error'), 200), message: cutUtf8(String(e.message || ''), 2000) };
  if (typeof e.code === 'string') out.code = cutUtf8(e.code, 100);
  return out;
}

function cutUtf8(text, maxBytes) {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let out = Buffer.from(text, 'utf8').subarray(0, Math.max(0, maxBytes)).toString('utf8');
  while (Buffer.byteLength(out, 'utf8') > maxBytes) out = out.slice(0, -1);
  return out;
}

/**
 * Evaluated INSIDE the context (stringified, so it closes over nothing of the
 * host). Builds `openclaw` and `console` from context intrinsics captured
 * before user code runs, so user code that replaces globals or prototypes
 * only breaks its own run. `channel` is called directly (never via
 * `.call`/`.apply`, which user code could replace) and never stored on an object.
 */
function bootstrap(channel, removedGlobals) {
  'use strict';
  const g = globalThis;
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const create = Object.create;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const PromiseCtor = Promise;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const StringCtor = String;
  const join = Array.prototype.join;
  const push = Array.prototype.push;
  const slice = String.prototype.slice;
  const isArray = Array.isArray;

  const removed = removedGlobals.split(',');
  for (let i = 0; i < removed.length; i += 1) delete g[removed[i]];

  const pending = create(null);
  let nextId = 1;
  let finished = false;
  // Set by `start` (from the run's limits) before any user code runs.
  let maxResultChars = 0;
  let maxLogChars = 0;

  // `await` on a primitive queues a microtask without any lookup user code could hook
  // (no `then`, no `constructor`, no species), unlike `promise.then(fn)`.
  const later = async (fn) => {
    await undefined;
    fn();
  };

  const bridgeError = (code, message) => {
    const error = new ErrorCtor(message);
    defineProperty(error, 'name', { value: 'ToolSearchError', enumerable: false, configurable: true, writable: true });
    defineProperty(error, 'code', { value: code, enumerable: true, configurable: true, writable: true });
    return error;
  };

  const request = (op, payload) => {
    if (finished)
      return new PromiseCtor((_, reject) => reject(bridgeError('CODE_FAILED', 'the code already finished')));
    const id = nextId;
    nextId += 1;
    let text;
    try {
      text = stringify({ t: 'bridge', id, op, payload });
    } catch (error) {
      return new PromiseCtor((_, reject) =>
        reject(new TypeErrorCtor(`arguments of openclaw.tools.${op} are not JSON data`)),
      );
    }
    return new PromiseCtor((resolve, reject) => {
      let status;
      try {
        status = channel(text);
      } catch {
        status = 'invalid';
      }
      if (status === 'ok') {
        pending[id] = { resolve, reject, op };
        return;
      }
      if (status === 'limit:size')
        reject(bridgeError('CODE_LIMIT_EXCEEDED', `arguments of openclaw.tools.${op} are too large`));
      else if (status === 'limit:total')
        reject(bridgeError('CODE_LIMIT_EXCEEDED', 'too many openclaw.tools calls in one run'));
      else if (status === 'limit:pending')
        reject(bridgeError('CODE_LIMIT_EXCEEDED', 'too many openclaw.tools calls pending at once; await some first'));
      else reject(bridgeError('CODE_FAILED', `openclaw.tools.${op} could not be sent`));
    });
  };

  const tools = freeze(
    create(null, {
      search: {
        enumerable: true,
        value: function search(query, options) {
          return request('search', { query, options });
        },
      },
      describe: {
        enumerable: true,
        value: function describe(id) {
          return request('describe', { id });
        },
      },
      call: {
        enumerable: true,
        value: function call(id, args) {
          return request('call', { id, args });
        },
      },
    }),
  );
  const openclaw = freeze(create(null, { tools: { enumerable: true, value: tools } }));

  const format = (value) => {
    if (typeof value === 'string') return value;
    try {
      if (value instanceof ErrorCtor) return `${StringCtor(value.name)}: ${StringCtor(value.message)}`;
      const text = stringify(value);
      return text === undefined ? StringCtor(value) : text;
    } catch {
      try {
        return StringCtor(value);
      } catch {
        return '[unprintable]';
      }
    }
  };
  let logsCut = false;
  const logger = (level) =>
    function log(...args) {
      if (logsCut) return;
      const parts = [];
      for (let i = 0; i < args.length; i += 1) apply(push, parts, [format(args[i])]);
      let text = apply(join, parts, [' ']);
      if (text.length > maxLogChars) text = apply(slice, text, [0, maxLogChars]);
      try {
        if (channel(stringify({ t: 'log', level, text })) === 'cut') logsCut = true;
      } catch {
        /* the host refused: the line is dropped */
      }
    };
  const consoleObject = freeze(
    create(null, {
      // Exactly the documented console.log/warn/error (the Tools document's contract), nothing more.
      log: { enumerable: true, value: logger('log') },
      warn: { enumerable: true, value: logger('warn') },
      error: { enumerable: true, value: logger('error') },
    }),
  );

  defineProperty(g, 'openclaw', { value: openclaw, enumerable: false, configurable: false, writable: false });
  defineProperty(g, 'console', { value: consoleObject, enumerable: false, configurable: true, writable: true });

  const errorView = (error) => {
    const view = { name: 'Error', message: '' };
    try {
      if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
        view.name = StringCtor(error.name);
        view.message = StringCtor(error.message);
        if (typeof error.code === 'string') view.code = error.code;
      } else {
        view.message = StringCtor(error);
      }
    } catch {
      view.message = 'a value that cannot be described was thrown';
    }
    return view;
  };

  const finish = (message) => {
    if (finished) return;
    finished = true;
    let text;
    try {
      text = stringify(message);
    } catch {
      text = stringify({
        t: 'done',
        ok: false,
        phase: 'result',
        error: { name: 'TypeError', message: 'the result could not be serialized' },
      });
    }
    try {
      channel(text);
    } catch {
      /* nothing left to report to */
    }
  };

  // A search answers an array of hits (`query` and `truncated` ride on it, not enumerable); a batch, an array of those.
  const hitArray = (result) => {
    const hits = result !== null && typeof result === 'object' && isArray(result.hits) ? result.hits : [];
    defineProperty(hits, 'query', {
      value: result && typeof result.query === 'string' ? result.query : '',
      configurable: true,
      writable: true,
    });
    defineProperty(hits, 'truncated', {
      value: Boolean(result && result.truncated === true),
      configurable: true,
      writable: true,
    });
    return hits;
  };
  const searchHits = (value) => {
    if (value === null || typeof value !== 'object' || !isArray(value.results)) return hitArray(value);
    const lists = [];
    for (let i = 0; i < value.results.length; i += 1) apply(push, lists, [hitArray(value.results[i])]);
    defineProperty(lists, 'truncated', { value: value.truncated === true, configurable: true, writable: true });
    return lists;
  };

  const handle = (line) => {
    let reply;
    try {
      reply = parse(line);
    } catch {
      return;
    }
    const entry = pending[reply.id];
    if (!entry) return;
    delete pending[reply.id];
    if (reply.ok === true) {
      entry.resolve(entry.op === 'search' ? searchHits(reply.value) : reply.value);
    } else {
      const e = reply.error !== null && typeof reply.error === 'object' ? reply.error : {};
      const error = bridgeError(
        typeof e.code === 'string' ? e.code : 'CODE_FAILED',
        typeof e.message === 'string' ? e.message : 'the bridge call failed',
      );
      if (e.details !== undefined)
        defineProperty(error, 'details', { value: e.details, enumerable: true, configurable: true, writable: true });
      entry.reject(error);
    }
  };

  return freeze({
    // Called by the host with the compiled user function and two numbers; user code
    // starts from a microtask, so no host frame is ever below it on the stack.
    start(fn, resultChars, logChars) {
      maxResultChars = resultChars;
      maxLogChars = logChars;
      later(async () => {
        let value;
        try {
          if (typeof fn !== 'function') throw new TypeErrorCtor('the code did not compile to a function body');
          value = await apply(fn, undefined, []);
        } catch (error) {
          finish({ t: 'done', ok: false, phase: 'run', error: errorView(error) });
          return;
        }
        let json;
        try {
          json = value === undefined ? undefined : stringify(value);
        } catch (error) {
          finish({ t: 'done', ok: false, phase: 'result', error: errorView(error) });
          return;
        }
        let cut = false;
        if (typeof json === 'string' && json.length > maxResultChars) {
          json = apply(slice, json, [0, maxResultChars]);
          cut = true;
        }
        finish({ t: 'done', ok: true, json, cut });
      });
    },
    // Called by the host with a reply line (a string); handled from a microtask.
    deliver(line) {
      if (typeof line === 'string') later(() => handle(line));
    },
  });
}
