/**
 * Bounds tried as an attacker would (issue 21): memory outside the V8 heap,
 * concurrency, oversized replies, calls left running, orphaned children.
 * Each test fails if the bound does not hold.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KernelPlugin, Run } from '@tool-search/kernel';
import { codeModePlugin, runCode, SANDBOX_KINDS, sandboxesExited } from '../src/index.js';
import { fakeSourcePlugin, isAlive, makeRun, pidTracker, slowToolPlugin } from './fixtures.js';

const BIG_BYTES = 50 * 1024 * 1024;
const bigTool: KernelPlugin = {
  name: 'test-big',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) =>
      sink.add({
        name: 'big_report',
        source: 'plugin',
        owner: 'big',
        description: 'Fake tool: a 50 MB report.',
        inputSchema: { type: 'object' },
        execute: () => ({ content: [{ type: 'text', text: 'r'.repeat(BIG_BYTES) }] }),
      }),
    ),
};

const slow = { started: 0, aborted: 0 };
let run: Run;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ run, close } = await makeRun([fakeSourcePlugin(), bigTool, slowToolPlugin(slow)]));
});
afterAll(() => close());

describe.each(SANDBOX_KINDS)('%s backend', (sandbox) => {
  it('cuts a 50 MB tool result to maxReplyBytes with a flag the code sees, instead of running out of memory', async () => {
    const result = await runCode(
      run,
      `const r = await openclaw.tools.call('big_report', {}); return { truncated: r.truncated, originalBytes: r.originalBytes, length: r.content[0].text.length };`,
      { sandbox, codeTimeoutMs: 20_000, limits: { maxReplyBytes: 100_000 } },
    );
    expect(result).toMatchObject({ ok: true, value: { truncated: true }, telemetry: { cut: { replies: true } } });
    const value = (result as { value: { originalBytes: number; length: number } }).value;
    expect(value.originalBytes).toBeGreaterThan(BIG_BYTES);
    expect(value.length).toBeLessThanOrEqual(100_000);
  });

  it('aborts a call left running when the code returns, and names it in the result', async () => {
    const before = { ...slow };
    const result = await runCode(
      run,
      `openclaw.tools.call('slow_tool', {}).catch(() => {}); await openclaw.tools.search('x'); return 'left';`,
      { sandbox, codeTimeoutMs: 10_000 },
    );
    expect(result).toMatchObject({
      ok: true,
      value: 'left',
      telemetry: { cancelled: [{ op: 'call', toolId: 'plugin:slow:slow_tool' }] },
    });
    await expect.poll(() => slow.aborted - before.aborted).toBe(1);
    expect(slow.started - before.started).toBe(1);
  });

  it('aborts calls in flight at CODE_TIMEOUT and names them', async () => {
    const before = { ...slow };
    const result = await runCode(
      run,
      `await Promise.all([openclaw.tools.call('slow_tool', {}), openclaw.tools.call('slow_tool', {})]);`,
      { sandbox, codeTimeoutMs: 1500 },
    );
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'CODE_TIMEOUT' },
      telemetry: { cancelled: [{ toolId: 'plugin:slow:slow_tool' }, { toolId: 'plugin:slow:slow_tool' }] },
    });
    await expect.poll(() => slow.aborted - before.aborted).toBe(2);
  });
});

describe('process backend: memory outside the V8 heap', () => {
  it('kills a child that piles up Intl objects past the RSS limit (SANDBOX_FAILED)', async () => {
    const tracker = pidTracker();
    const result = await runCode(
      run,
      `const keep = []; for (;;) keep.push(new Intl.DateTimeFormat('en', { timeZone: 'UTC' }), new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }), new Intl.Collator('fr'));`,
      { codeTimeoutMs: 30_000, limits: { rssMb: 160 }, onSpawn: tracker.onSpawn },
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_FAILED' } });
    expect(result.ok ? '' : result.error.message).toContain('160 MiB');
    await sandboxesExited();
    expect(tracker.alive()).toEqual([]);
  });

  it('kills a child that builds large strings past the RSS limit', async () => {
    const result = await runCode(run, `const keep = []; let s = 'x'; for (;;) { s = s + s; keep.push(s.slice(1)); }`, {
      codeTimeoutMs: 30_000,
      limits: { rssMb: 160 },
    });
    expect(result.ok).toBe(false);
    expect(['SANDBOX_FAILED', 'CODE_FAILED']).toContain(result.ok ? '' : result.error.code);
  });
});

describe('concurrency', () => {
  it('runs at most maxConcurrent sandboxes at once and queues the rest', async () => {
    const alive = new Set<number>();
    let most = 0;
    const onSpawn = (pid: number) => {
      for (const known of [...alive]) if (!isAlive(known)) alive.delete(known);
      alive.add(pid);
      most = Math.max(most, alive.size);
    };
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        runCode(run, `return ${i};`, { maxConcurrent: 2, onSpawn, codeTimeoutMs: 20_000 }),
      ),
    );
    expect(results.map((r) => (r.ok ? r.value : r.error.code))).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(most).toBeLessThanOrEqual(2);
  });

  it('clamps warmPool to 8 children', async () => {
    const tracker = pidTracker();
    const { run: pooled, close: closePooled } = await makeRun([
      fakeSourcePlugin(),
      codeModePlugin({ warmPool: 60, onSpawn: tracker.onSpawn }),
    ]);
    await pooled.exposure('code');
    const started = tracker.pids.length;
    await closePooled();
    expect(started).toBe(8);
  });
});

describe('orphans: the child ends with its parent', () => {
  it.each(['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGKILL'] as const)(
    'after %s of the parent, while the code spins',
    async (signal) => {
      const parent = spawn(process.execPath, [new URL('./fixtures/spinning-parent.mjs', import.meta.url).pathname], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const pid = await new Promise<number>((resolve, reject) => {
        parent.stdout.setEncoding('utf8').once('data', (text: string) => resolve(Number.parseInt(text, 10)));
        parent.once('exit', () => reject(new Error('the parent exited before it started a child')));
      });
      expect(isAlive(pid)).toBe(true);
      const exited = new Promise((resolve) => parent.once('exit', resolve));
      parent.kill(signal);
      await exited;
      await expect.poll(() => isAlive(pid), { timeout: 20_000, interval: 50 }).toBe(false);
    },
  );
});

describe('quickjs backend: a spinning body does not hold the parent', () => {
  it('another run finishes while a sync loop spins, and the loop still ends as CODE_TIMEOUT', async () => {
    let spinDone = false;
    const spinning = runCode(run, 'for (;;) {}', { sandbox: 'quickjs', codeTimeoutMs: 4000 }).then((result) => {
      spinDone = true;
      return result;
    });
    const quick = await runCode(run, 'return 1 + 1', { sandbox: 'quickjs', codeTimeoutMs: 4000 });
    expect(quick).toMatchObject({ ok: true, value: 2 });
    expect(spinDone).toBe(false);
    expect(await spinning).toMatchObject({ ok: false, error: { code: 'CODE_TIMEOUT' } });
  });

  it('a loop the code leaves spinning after its result does not hold the worker the next run gets', async () => {
    // 32 MiB per builtin call: the interrupt handler sees this loop about once in tens of seconds. A worker reused
    // while it spins would take the next run only after that, past the next run's own 5 s clock.
    const lingering = `(async () => { for (let i = 0; i < 3; i++) await null; let n = 0; for (;;) n += 'x'.repeat(1 << 25).length; })(); return 'first';`;
    expect(await runCode(run, lingering, { sandbox: 'quickjs' })).toMatchObject({ ok: true, value: 'first' });
    expect(await runCode(run, 'return "next"', { sandbox: 'quickjs', codeTimeoutMs: 5000 })).toMatchObject({
      ok: true,
      value: 'next',
    });
  });

  it('a builtin-heavy loop the interrupt handler rarely sees is stopped by terminating its worker', async () => {
    const result = await runCode(run, `let n = 0; for (;;) n += 'x'.repeat(1 << 20).length;`, {
      sandbox: 'quickjs',
      codeTimeoutMs: 1500,
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'CODE_TIMEOUT' } });
    expect(await runCode(run, 'return "next"', { sandbox: 'quickjs' })).toMatchObject({ ok: true, value: 'next' });
  });
});
