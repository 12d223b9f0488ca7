/**
 * The escape suite: one test per attempt, each failing if the attempt works.
 * Every attempt also checks that no secret (env or file) comes back, that the
 * parent answers within the timeout plus a grace, that no sandbox process is
 * left behind and that the parent's prototypes are untouched. The suite runs
 * against both sandbox backends (the Node child and QuickJS).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '@tool-search/kernel';
import {
  runCode,
  SANDBOX_KINDS,
  sandboxesExited,
  type CodeResult,
  type RunCodeOptions,
  type SandboxKind,
} from '../src/index.js';
import {
  SECRET_ENV,
  SECRET_FILE_VALUE,
  SECRET_VALUE,
  blockPlugin,
  denyPlugin,
  fakeSourcePlugin,
  makeRun,
  pidTracker,
} from './fixtures.js';

/**
 * Attempts that must be stopped by the clock use the short timeout (they are about *that* the clock stops them, and
 * a sandbox starts in well under it); the others get room for a loaded machine.
 */
const TIMEOUT_MS = 1000;
const ROOMY_TIMEOUT_MS = 8000;
const GRACE_MS = 4000;
const tracker = pidTracker();
let run: Run;
let close: () => Promise<void>;
let secretDir: string;
let secretFile: string;

beforeAll(async () => {
  process.env[SECRET_ENV] = SECRET_VALUE;
  secretDir = mkdtempSync(join(tmpdir(), 'mode-code-secret-'));
  secretFile = join(secretDir, 'secret.txt');
  writeFileSync(secretFile, SECRET_FILE_VALUE);
  ({ run, close } = await makeRun([
    fakeSourcePlugin(),
    denyPlugin(['send_email_message']),
    blockPlugin(['order_pizza_delivery']),
  ]));
});

afterEach(async () => {
  await sandboxesExited();
  expect(tracker.alive()).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
  expect(process.env[SECRET_ENV]).toBe(SECRET_VALUE);
});

afterAll(async () => {
  await close();
  rmSync(secretDir, { recursive: true, force: true });
  expect(tracker.pids.length).toBeGreaterThan(0);
  expect(tracker.alive()).toEqual([]);
});

/** The backend the current block runs against (the whole suite runs once per backend). */
let sandbox: SandboxKind = 'process';

/** Runs an attempt with the secret file path available as `SECRET_PATH`. */
async function attempt(code: string, extra: Partial<RunCodeOptions> = {}): Promise<CodeResult> {
  const started = performance.now();
  const codeTimeoutMs = extra.codeTimeoutMs ?? ROOMY_TIMEOUT_MS;
  const result = await runCode(run, `const SECRET_PATH = ${JSON.stringify(secretFile)};\n${code}`, {
    onSpawn: tracker.onSpawn,
    sandbox,
    ...extra,
    codeTimeoutMs,
  });
  const text = JSON.stringify(result);
  expect(text).not.toContain(SECRET_VALUE);
  expect(text).not.toContain(SECRET_FILE_VALUE);
  expect(performance.now() - started).toBeLessThan(codeTimeoutMs + GRACE_MS);
  return result;
}

const short = { codeTimeoutMs: TIMEOUT_MS };
const valueOf = (result: CodeResult): unknown => (result.ok ? result.value : undefined);

describe.each(SANDBOX_KINDS)('%s backend', (kind) => {
  beforeAll(() => {
    sandbox = kind;
  });

  describe('module and process access', () => {
    it('has no require', async () => {
      const result = await attempt(`return require('fs').readFileSync(SECRET_PATH, 'utf8');`);
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_FAILED', cause: { name: 'ReferenceError' } } });
    });

    it('has no process', async () => {
      const result = await attempt(`return process.env.${SECRET_ENV};`);
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_FAILED', cause: { name: 'ReferenceError' } } });
    });

    it('has no host globals of any kind', async () => {
      const result = await attempt(
        `return ['require', 'process', 'module', 'Buffer', 'fetch', 'WebSocket', 'XMLHttpRequest', 'setTimeout', 'setInterval', 'queueMicrotask',
          'structuredClone', 'WebAssembly', 'SharedArrayBuffer', 'Atomics', 'ArrayBuffer'].filter((name) => typeof globalThis[name] !== 'undefined');`,
      );
      expect(result).toMatchObject({ ok: true, value: [] });
    });

    it("resolves bare Object.prototype names to sandbox intrinsics, not the host's", async () => {
      const result = await attempt(
        `const names = ['hasOwnProperty', 'toString', 'valueOf', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__lookupGetter__', '__defineGetter__'];
         const local = [hasOwnProperty, toString, valueOf, isPrototypeOf, propertyIsEnumerable, toLocaleString, __lookupGetter__, __defineGetter__];
         return names.filter((name, i) => local[i] !== Object.prototype[name]);`,
      );
      expect(result).toMatchObject({ ok: true, value: [] });
    });

    it('refuses import()', async () => {
      const result = await attempt(`const fs = await import('fs'); return fs.readFileSync(SECRET_PATH, 'utf8');`);
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_INVALID' } });
    });

    it('refuses import() hidden behind comments and line breaks', async () => {
      const result = await attempt(
        `let x = 1.\nimport /* hidden */\n// more\n('fs').catch((e) => e.constructor.constructor('return process')());`,
      );
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_INVALID' } });
    });

    it('has no fetch', async () => {
      const result = await attempt(`return await fetch('http://127.0.0.1:9/');`);
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_FAILED', cause: { name: 'ReferenceError' } } });
    });
  });

  describe('code generation', () => {
    it.each([
      ['eval', `return eval('typeof process');`],
      ['indirect eval', `return (0, eval)('typeof process');`],
      ['Function', `return Function('return process')();`],
      ['new Function', `return new Function('return process')();`],
      ['AsyncFunction', `return await (async function () {}).constructor('return process')();`],
      ['GeneratorFunction', `return (function* () {}).constructor('yield process')().next().value;`],
      ['AsyncGeneratorFunction', `return (await (async function* () {}).constructor('yield process')().next()).value;`],
    ])('blocks %s', async (_name, code) => {
      const result = await attempt(code);
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_FAILED', cause: { name: 'EvalError' } } });
    });
  });

  describe('.constructor.constructor from every object the code receives', () => {
    it.each([
      ['a bridge function', `openclaw.tools.search`],
      ['a bridge promise', `openclaw.tools.search('weather')`],
      ['a search result', `await openclaw.tools.search('weather')`],
      ['a call result', `await openclaw.tools.call('weather_forecast_city', { q: 'x' })`],
      ['a bridge error', `await openclaw.tools.call('nope', {}).catch((e) => e)`],
      ['console.log', `console.log`],
      ['console', `console`],
      ['openclaw', `openclaw`],
      ['openclaw.tools', `openclaw.tools`],
      ['globalThis', `globalThis`],
    ])('from %s reaches only the sandbox Function, which cannot compile', async (_name, expression) => {
      const result = await attempt(
        `const target = ${expression};
         // Null-prototype objects (openclaw, console) have no constructor at all.
         const F = target.constructor === undefined ? undefined : target.constructor.constructor;
         if (F === undefined) return 'no constructor';
         if (F !== Function) return 'foreign Function reached';
         try { return F('return process')(); } catch (e) { return e.name; }`,
      );
      expect(result.ok).toBe(true);
      expect(['EvalError', 'no constructor']).toContain(valueOf(result));
    });

    it('finds only sandbox-realm objects reachable from the globals, the bridge and its results', async () => {
      const result = await attempt(
        `const roots = [globalThis, openclaw, console, openclaw.tools.search('x'), await openclaw.tools.search('weather'),
           await openclaw.tools.describe('weather_forecast_city'), await openclaw.tools.call('weather_forecast_city', {}),
           await openclaw.tools.call('nope', {}).catch((e) => e), new Error('x').stack];
         const seen = new Set(); const queue = [...roots]; const foreign = [];
         while (queue.length && seen.size < 20000) {
           const value = queue.shift();
           if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
           seen.add(value);
           let top = value; while (Object.getPrototypeOf(top) !== null) top = Object.getPrototypeOf(top);
           if (top !== Object.prototype && top !== value) foreign.push(String(value));
           queue.push(Object.getPrototypeOf(value));
           for (const key of Reflect.ownKeys(value)) {
             const d = Object.getOwnPropertyDescriptor(value, key);
             if (d) queue.push(d.value, d.get, d.set);
           }
         }
         return { foreign, seen: seen.size };`,
      );
      expect(result.ok).toBe(true);
      expect(valueOf(result)).toMatchObject({ foreign: [] });
    });
  });

  describe('stack and caller tricks', () => {
    it('Error.prepareStackTrace call sites expose no host function or receiver', async () => {
      const result = await attempt(
        `const leaks = [];
         const isLocal = (v) => { let top = v; while (Object.getPrototypeOf(top) !== null) top = Object.getPrototypeOf(top); return top === Object.prototype; };
         Error.prepareStackTrace = (error, sites) => {
           for (const site of sites) for (const v of [site.getThis(), site.getFunction()]) {
             if ((typeof v === 'object' || typeof v === 'function') && v !== null && !isLocal(v)) leaks.push(String(site));
           }
           return 'formatted';
         };
         const probe = () => new Error('probe').stack;
         probe();
         await openclaw.tools.call('weather_forecast_city', { get q() { probe(); return 'x'; }, toJSON() { probe(); return { q: 'y' }; } });
         await openclaw.tools.search('weather').then(() => probe());
         console.log({ toJSON() { probe(); return 'z'; } });
         return leaks;`,
      );
      expect(result).toMatchObject({ ok: true, value: [] });
    });

    it('Error.captureStackTrace call sites expose no host function', async () => {
      const result = await attempt(
        `const isLocal = (v) => { let top = v; while (Object.getPrototypeOf(top) !== null) top = Object.getPrototypeOf(top); return top === Object.prototype; };
         // QuickJS has no captureStackTrace: nothing to reach there.
         if (typeof Error.captureStackTrace !== 'function') return 0;
         Error.prepareStackTrace = (error, sites) => sites.map((s) => typeof s.getFunction() === 'function' && !isLocal(s.getFunction()));
         const holder = {};
         await openclaw.tools.search({ toString() { return 'x'; } }).catch(() => {});
         Error.captureStackTrace(holder);
         return holder.stack.filter(Boolean).length;`,
      );
      expect(result).toMatchObject({ ok: true, value: 0 });
    });

    it('arguments.callee.caller reaches no host function', async () => {
      const result = await attempt(
        `const callers = [];
         function sloppy() { let f = arguments.callee.caller; for (let i = 0; f && i < 10; i += 1) { callers.push(f.constructor === Function); try { f = f.caller; } catch { break; } } return 'q'; }
         await openclaw.tools.call('weather_forecast_city', { toJSON: function () { sloppy(); return {}; } });
         console.log({ toJSON: function () { sloppy(); return 1; } });
         await openclaw.tools.search('x').then(function () { sloppy(); });
         return callers.filter((local) => !local).length;`,
      );
      expect(result).toMatchObject({ ok: true, value: 0 });
    });

    it('stack exhaustion at the bridge boundary leaks no host error', async () => {
      const result = await attempt(
        `const caught = [];
         function deep() { try { deep(); } catch { try { console.log('x'); } catch (e) { caught.push(e); } try { openclaw.tools.search('x').catch((e) => caught.push(e)); } catch (e) { caught.push(e); } } }
         deep();
         await openclaw.tools.search('settle');
         return caught.filter((e) => e !== null && typeof e === 'object' && !(e instanceof Error)).length;`,
      );
      expect(result).toMatchObject({ ok: true, value: 0 });
    });

    it('refuses code that closes the function wrapper', async () => {
      const result = await attempt(
        `});\nglobalThis.leak = typeof process;\n(async function () {\nreturn globalThis.leak;`,
      );
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_INVALID' } });
    });

    it('refuses code that closes the wrapper inside an expression', async () => {
      const result = await attempt(`}\n(globalThis.ran = 1) + async function () {\nreturn 1;`);
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_INVALID' } });
    });
  });

  describe('data crossing the bridge', () => {
    it('prototype pollution does not reach the parent', async () => {
      const result = await attempt(
        `Object.prototype.polluted = 'yes'; Array.prototype.polluted = 'yes';
         const args = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "q": "p"}');
         const r = await openclaw.tools.call('weather_forecast_city', args);
         return r.content[0].text;`,
      );
      expect(result.ok).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    });

    it('a proxy in arguments runs its traps in the sandbox only; the tool gets plain data', async () => {
      const result = await attempt(
        `const args = new Proxy({}, { ownKeys: () => ['q'], getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }),
           get: (_t, key) => key === 'toJSON' ? undefined : typeof process + '/' + typeof require });
         const r = await openclaw.tools.call('weather_forecast_city', args);
         return r.content[0].text;`,
      );
      expect(result).toMatchObject({
        ok: true,
        value: 'FAKE_TOOL_OK weather_forecast_city {"q":"undefined/undefined"}',
      });
    });

    it('a getter in arguments is read once, in the sandbox', async () => {
      const result = await attempt(
        `let reads = 0;
         const r = await openclaw.tools.call('weather_forecast_city', { get q() { reads += 1; return 'read' + reads; } });
         return { reads, text: r.content[0].text };`,
      );
      expect(result).toMatchObject({
        ok: true,
        value: { reads: 1, text: 'FAKE_TOOL_OK weather_forecast_city {"q":"read1"}' },
      });
    });

    it('deeply nested arguments come back as a coded error', async () => {
      const result = await attempt(
        `let deep = {}; for (let i = 0; i < 20000; i += 1) deep = { d: deep };
         try { await openclaw.tools.call('weather_forecast_city', { q: 'x', deep }); return 'called'; } catch (e) { return e.name; }`,
      );
      expect(result.ok).toBe(true);
      expect(valueOf(result)).not.toBe('called');
    });

    it('a deeply nested return value comes back as a coded error', async () => {
      const result = await attempt(`let deep = []; for (let i = 0; i < 100000; i += 1) deep = [deep]; return deep;`);
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_FAILED' } });
    });

    it('exposes exactly search, describe and call', async () => {
      const result = await attempt(
        `return { tools: Reflect.ownKeys(openclaw.tools), root: Reflect.ownKeys(openclaw), frozen: Object.isFrozen(openclaw.tools), proto: Object.getPrototypeOf(openclaw.tools) };`,
      );
      expect(result).toMatchObject({
        ok: true,
        value: { tools: ['search', 'describe', 'call'], root: ['tools'], frozen: true, proto: null },
      });
    });
  });

  describe('resource exhaustion', () => {
    it('stops an infinite loop', async () => {
      const result = await attempt(`while (true) {}`, short);
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_TIMEOUT' } });
    });

    it('stops a microtask loop', async () => {
      const result = await attempt(
        `const spin = () => { Promise.resolve().then(spin); }; spin(); await new Promise(() => {});`,
        short,
      );
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_TIMEOUT' } });
    });

    it('kills a microtask loop that outlives the body', async () => {
      const result = await attempt(`(function spin() { Promise.resolve().then(spin); })(); return 'returned';`);
      expect(result).toMatchObject({ ok: true, value: 'returned' });
    });

    it('stops a never-settling promise', async () => {
      const result = await attempt(`await new Promise(() => {});`, short);
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_TIMEOUT' } });
    });

    it('cannot block on Atomics.wait', async () => {
      const result = await attempt(
        `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return 'waited';`,
        short,
      );
      expect(result.ok).toBe(false);
    });

    it('stops a heap memory bomb', async () => {
      // In QuickJS a loop of 1 MiB builtin calls is rarely polled by the interrupt handler: the worker is terminated.
      const result = await attempt(
        `const hoard = []; for (;;) hoard.push('x'.repeat(1 << 20) + Math.random());`,
        short,
      );
      expect(result.ok).toBe(false);
      expect(['SANDBOX_FAILED', 'CODE_TIMEOUT', 'CODE_FAILED']).toContain(result.ok ? '' : result.error.code);
    });

    it('cannot allocate outside the heap', async () => {
      const result = await attempt(`const hoard = []; for (;;) hoard.push(new ArrayBuffer(1 << 30));`);
      expect(result).toMatchObject({ ok: false, error: { code: 'CODE_FAILED', cause: { name: 'ReferenceError' } } });
    });

    it('cuts a console flood', async () => {
      const result = await attempt(
        `for (let i = 0; i < 100000; i += 1) console.log('flood '.repeat(100)); return 'done';`,
        {
          limits: { maxLogLines: 20, maxLogBytes: 4096 },
        },
      );
      expect(result).toMatchObject({ ok: true, value: 'done', telemetry: { cut: { logs: true } } });
      expect(result.logs!.length).toBeLessThanOrEqual(20);
      expect(Buffer.byteLength(result.logs!.map((l) => l.text).join(''), 'utf8')).toBeLessThanOrEqual(4096);
    });

    it('cuts a huge result', async () => {
      const result = await attempt(`return 'x'.repeat(5_000_000);`, { limits: { maxResultBytes: 1000 } });
      expect(result).toMatchObject({ ok: true, telemetry: { cut: { result: true } } });
      expect(Buffer.byteLength(String(valueOf(result)), 'utf8')).toBeLessThanOrEqual(1000);
    });

    it('refuses bridge calls past the bound', async () => {
      const result = await attempt(
        `let refused = 0; for (let i = 0; i < 10; i += 1) { try { await openclaw.tools.search('x'); } catch (e) { if (e.code === 'CODE_LIMIT_EXCEEDED') refused += 1; } } return refused;`,
        { limits: { maxBridgeCalls: 4 } },
      );
      expect(result).toMatchObject({ ok: true, value: 6, telemetry: { searches: 4, cut: { calls: true } } });
    });

    it('refuses bridge calls pending past the bound', async () => {
      const result = await attempt(
        `const all = await Promise.allSettled(Array.from({ length: 6 }, () => openclaw.tools.search('x')));
         return all.filter((r) => r.status === 'rejected' && r.reason.code === 'CODE_LIMIT_EXCEEDED').length;`,
        { limits: { maxPendingCalls: 2 } },
      );
      expect(result).toMatchObject({ ok: true, value: 4 });
    });
  });

  describe('policy through the bridge', () => {
    it('cannot call a denied tool by name', async () => {
      const result = await attempt(
        `try { await openclaw.tools.call('send_email_message', {}); return 'called'; } catch (e) { return e.code; }`,
      );
      expect(result).toMatchObject({ ok: true, value: 'UNKNOWN_TOOL' });
    });

    it('cannot call a denied tool by id', async () => {
      const result = await attempt(
        `try { await openclaw.tools.call('core:core:send_email_message', {}); return 'called'; } catch (e) { return e.code; }`,
      );
      expect(result).toMatchObject({ ok: true, value: 'UNKNOWN_TOOL' });
    });

    it('cannot find a denied tool by search', async () => {
      const result = await attempt(
        `const r = await openclaw.tools.search('send email message', { limit: 50 }); return r.map((h) => h.name);`,
      );
      expect(result.ok).toBe(true);
      expect(valueOf(result)).not.toContain('send_email_message');
    });

    it('cannot describe a denied tool', async () => {
      const result = await attempt(
        `try { await openclaw.tools.describe('core:core:send_email_message'); return 'described'; } catch (e) { return e.code; }`,
      );
      expect(result).toMatchObject({ ok: true, value: 'UNKNOWN_TOOL' });
    });

    it('a blocked call does not run and rejects with TOOL_CALL_BLOCKED', async () => {
      const result = await attempt(
        `try { await openclaw.tools.call('order_pizza_delivery', {}); return 'called'; } catch (e) { return e.code; }`,
      );
      expect(result).toMatchObject({ ok: true, value: 'TOOL_CALL_BLOCKED' });
    });

    it('cannot call tool_search_code from code', async () => {
      const result = await attempt(
        `try { await openclaw.tools.call('tool_search_code', { code: 'return 1' }); return 'called'; } catch (e) { return e.code; }`,
      );
      expect(result).toMatchObject({ ok: true, value: 'UNKNOWN_TOOL' });
    });
  });

  describe('secrets', () => {
    it('the environment secret never comes back', async () => {
      const result = await attempt(
        `const found = [];
         for (const probe of [() => process.env, () => globalThis.process.env, () => Function('return process')().env, () => this.process]) {
           try { found.push(JSON.stringify(probe())); } catch (e) { found.push(e.name); }
         }
         return found;`,
      );
      expect(result.ok).toBe(true);
    });

    it('the secret file never comes back', async () => {
      const result = await attempt(
        `const found = [];
         for (const probe of [() => require('fs').readFileSync(SECRET_PATH, 'utf8'), () => process.binding('fs'), () => openclaw.tools.call('read_file', { path: SECRET_PATH })]) {
           try { found.push(String(await probe())); } catch (e) { found.push(e.name); }
         }
         return found;`,
      );
      expect(result.ok).toBe(true);
    });
  });
});
