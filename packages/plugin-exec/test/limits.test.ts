// tools.exec.limits: each bound is a real command that runs into it; the result names the limit.
import { execFileSync, spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { checkExecConfig, EXEC_LIMIT_DEFAULTS, ExecErrors } from '@tool-search/plugin-exec';
import { closeAll, codeOf, execEnv, OPEN, processRunning, SANDBOX_RUNS, structured } from './fixtures.js';

afterEach(closeAll);

const limited = (limits: object) => ({ ...OPEN, limits });

describe.skipIf(!SANDBOX_RUNS)('tools.exec.limits', () => {
  it('has documented defaults and refuses values out of range with CONFIG_INVALID naming the key', () => {
    expect(EXEC_LIMIT_DEFAULTS).toEqual({
      processes: 256,
      memoryMb: 1024,
      cpuSeconds: 600,
      fileSizeMb: 128,
      tmpMb: 256,
    });
    expect(() => checkExecConfig({ limits: { processes: 2 } })).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID, path: 'tools.exec.limits.processes' }),
    );
    expect(() => checkExecConfig({ limits: { memory: 5 } })).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID }),
    );
  });

  it('a big allocation fails under the default memory limit (2 GiB > memoryMb 1024), and the result names memoryMb', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    const out = structured(
      await run.call('exec', { command: 'python3 -c "b = bytearray(2 << 30); print(\'ALLOCATED\')"' }),
    );
    expect(String(out.output)).not.toContain('ALLOCATED');
    expect(out.limit).toMatchObject({ code: ExecErrors.EXEC_LIMIT_EXCEEDED, limit: 'memoryMb', value: 1024 });
  });

  it('memoryMb bounds each process (node too)', async () => {
    const run = await execEnv({ exec: limited({ memoryMb: 128 }) }).run();
    const out = structured(
      await run.call('exec', {
        command: `node -e "try { Buffer.alloc(256 << 20); console.log('ALLOCATED') } catch (e) { console.log(e.message) }"`,
      }),
    );
    expect(out.output).toBe('Array buffer allocation failed\n');
    expect(out.limit).toMatchObject({ limit: 'memoryMb', value: 128 });
  });

  it("the private /tmp holds at most tmpMb (RAM-backed: it is not this machine's memory to take)", async () => {
    const run = await execEnv({ exec: limited({ tmpMb: 16, fileSizeMb: 1024 }) }).run();
    const out = structured(
      await run.call('exec', { command: 'head -c 64M /dev/zero > /tmp/fill; stat -c %s /tmp/fill' }),
    );
    expect(String(out.output)).toContain('No space left on device');
    expect(Number(String(out.output).trim().split('\n').pop())).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(out.limit).toMatchObject({ limit: 'tmpMb', value: 16 });
  });

  it('a file in the workspace stops at fileSizeMb', async () => {
    const env = execEnv({ exec: limited({ fileSizeMb: 4 }) });
    const out = structured(await (await env.run()).call('exec', { command: 'head -c 32M /dev/zero > big.bin' }));
    expect(statSync(join(env.ws, 'big.bin')).size).toBe(4 * 1024 * 1024);
    expect(out.exitCode).not.toBe(0);
    expect(out.limit).toMatchObject({ limit: 'fileSizeMb', value: 4 });
  });

  it('a busy loop stops at cpuSeconds', async () => {
    const run = await execEnv({ exec: limited({ cpuSeconds: 1 }) }).run();
    const out = structured(await run.call('exec', { command: 'python3 -c "while True: pass"; echo "exit=$?"' }));
    expect(String(out.output)).toContain('exit=152'); // 128 + SIGXCPU
    expect(out.limit).toMatchObject({ limit: 'cpuSeconds', value: 1 });
  });

  it('the gateway host gets the same rlimits', async () => {
    const run = await execEnv({ exec: { ...limited({ fileSizeMb: 1 }), host: 'gateway' } }).run();
    const out = structured(await run.call('exec', { command: 'ulimit -f; ulimit -d; ulimit -t' }));
    expect(String(out.output).trim().split('\n')).toEqual(['1024', String(1024 * 1024), '600']);
  });
});

describe.skipIf(!SANDBOX_RUNS)('processes', () => {
  const env = () => execEnv({ exec: limited({ processes: 32 }) });

  it('a process flood is refused past the limit and the result names processes', async (ctx) => {
    const e = env();
    const run = await e.run();
    const warning = run.diagnostics.find((d) => (d.details as { limit?: string } | undefined)?.limit === 'processes');
    if (warning) {
      console.log(`skipping the process flood: ${warning.message}`);
      return ctx.skip();
    }
    const flood =
      'import os, sys, time\nkids = []\ntry:\n  for i in range(200):\n    pid = os.fork()\n    if pid == 0:\n      time.sleep(30); os._exit(0)\n    kids.append(pid)\nexcept OSError as e:\n  print("STOPPED AT", len(kids), "fork failed:", e.strerror)\nfor k in kids: os.kill(k, 9)\nprint("DONE", len(kids))';
    const out = structured(await run.call('exec', { command: `python3 -c '${flood}'` }));
    const stopped = /STOPPED AT (\d+)/.exec(String(out.output));
    expect(stopped, String(out.output)).not.toBeNull();
    expect(Number(stopped![1])).toBeLessThan(32);
    expect(out.limit).toMatchObject({ limit: 'processes', value: 32 });
  });

  it('a fork bomb is contained: bounded while it runs, this machine keeps working, the call ends and nothing is left', async (ctx) => {
    const e = env();
    const run = await e.run();
    const warning = run.diagnostics.find((d) => (d.details as { limit?: string } | undefined)?.limit === 'processes');
    if (warning) {
      console.log(`skipping the fork bomb (it would take this machine down): ${warning.message}`);
      return ctx.skip();
    }
    const marker = `bomb_${process.pid}`;
    const call = run.call('exec', {
      command: `${marker}() { ${marker} | ${marker} & }; ${marker}; while :; do sleep 1; done`,
      timeout: 5, // at its limit after ~1.3 s here (load 10): watching it 3 s shows the bound holds while it runs
    });
    let most = 0;
    const started = Date.now();
    while (Date.now() - started < 3000) {
      const count = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes(marker)).length;
      most = Math.max(most, count);
      expect(spawnSync('true').status).toBe(0); // this machine can still start processes
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(most).toBeGreaterThan(4); // the bomb did run
    expect(most).toBeLessThanOrEqual(32 + 3); // the command's processes, plus bwrap's two and ps's own line
    const outcome = await call;
    expect([ExecErrors.EXEC_TIMEOUT, undefined]).toContain(codeOf(outcome));
    const deadline = Date.now() + 30_000;
    while ((await processRunning(marker)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await processRunning(marker)).toBe(false);
  });
});
