/**
 * The QuickJS backend bootstraps the next run's runtime while a worker is idle; each run must still get a runtime
 * nobody used before, with its own memory limit.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCode } from '../src/index.js';
import { drainQuickJSWorkers, idleQuickJSWorkers } from '../src/sandbox/quickjs.js';
import { fakeSourcePlugin, makeRun } from './fixtures.js';

afterAll(async () => {
  await drainQuickJSWorkers();
});

describe('quickjs runtimes', () => {
  it('keeps as many idle workers as runs may run at once: a second burst of concurrent runs starts no worker', async () => {
    const { run, close } = await makeRun([fakeSourcePlugin()]);
    // The backend's one-time support probe (its own small worker) is over before counting starts.
    await runCode(run, 'return 1', { sandbox: 'quickjs', codeTimeoutMs: 20_000 });
    await drainQuickJSWorkers();
    let started = 0;
    const onWorker = () => (started += 1);
    process.on('worker', onWorker);
    try {
      const burst = async () => {
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            runCode(run, `const hits = await openclaw.tools.search('weather'); return ${i} + hits.length * 0;`, {
              sandbox: 'quickjs',
              maxConcurrent: 12,
              codeTimeoutMs: 20_000,
            }),
          ),
        );
        expect(results.map((result) => (result.ok ? result.value : result))).toEqual(
          Array.from({ length: 12 }, (_, i) => i),
        );
      };
      await burst();
      const afterFirst = started;
      expect(afterFirst).toBeGreaterThan(8); // past the old fixed cap of 8 idle workers
      // Each worker frees its run and rejoins the idle set on its own; on a loaded machine that can take a while.
      const deadline = Date.now() + 30_000;
      while (idleQuickJSWorkers() < 12 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(idleQuickJSWorkers()).toBeGreaterThanOrEqual(12);
      await burst();
      expect(started).toBe(afterFirst);
    } finally {
      process.off('worker', onWorker);
      await close();
    }
  }, 120_000);

  it('gives every run a fresh runtime: globals and prototypes one run changed are gone in the next', async () => {
    const { run, close } = await makeRun([fakeSourcePlugin()]);
    try {
      const seen: unknown[] = [];
      for (let i = 0; i < 6; i++) {
        const result = await runCode(
          run,
          'const before = [typeof globalThis.leak, typeof Array.prototype.leak]; globalThis.leak = 1; Array.prototype.leak = 2; return before;',
          {
            sandbox: 'quickjs',
            codeTimeoutMs: 2000,
          },
        );
        seen.push(result.ok ? result.value : result);
      }
      expect(seen).toEqual(Array.from({ length: 6 }, () => ['undefined', 'undefined']));
    } finally {
      await close();
    }
  });

  it('applies each run its own memory limit, even when the prepared runtime was made with another', async () => {
    const { run, close } = await makeRun([fakeSourcePlugin()]);
    try {
      const grow =
        'const parts = []; for (let i = 0; i < 64; i++) parts.push("x".repeat(1024 * 1024) + i); return parts.length;';
      const roomy = await runCode(run, grow, { sandbox: 'quickjs', codeTimeoutMs: 5000, limits: { memoryMb: 256 } });
      const tight = await runCode(run, grow, { sandbox: 'quickjs', codeTimeoutMs: 5000, limits: { memoryMb: 16 } });
      const roomyAgain = await runCode(run, grow, {
        sandbox: 'quickjs',
        codeTimeoutMs: 5000,
        limits: { memoryMb: 256 },
      });
      expect(roomy).toMatchObject({ ok: true, value: 64 });
      expect(tight).toMatchObject({
        ok: false,
        error: { code: 'SANDBOX_FAILED', message: expect.stringContaining('out of memory') },
      });
      expect(roomyAgain).toMatchObject({ ok: true, value: 64 });
    } finally {
      await close();
    }
  });

  it("bounds the interpreter's whole memory, not just single allocations: a hoard of 1 MiB strings ends as out of memory, long before the wall clock", async () => {
    const { run, close } = await makeRun([fakeSourcePlugin()]);
    try {
      const result = await runCode(run, `const hoard = []; for (;;) hoard.push('x'.repeat(1 << 20) + hoard.length);`, {
        sandbox: 'quickjs',
        codeTimeoutMs: 60_000,
        limits: { memoryMb: 32 },
      });
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'SANDBOX_FAILED', message: expect.stringContaining('out of memory') },
      });
      expect(result.telemetry?.durationMs).toBeLessThan(60_000);
    } finally {
      await close();
    }
  });
});
