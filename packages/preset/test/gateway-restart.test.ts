/**
 * Issue #40: an agent must not take the gateway down for good. The gateway tool's check runs every start step before
 * a write (and never imports a plugin module), restarts asked for are bounded (a cron job asking every second gets a
 * restart per drain, not a gateway that never serves), and a restarted config that does not start falls back to the
 * last one that served.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode } from '@tool-search/kernel';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { runGateway, type ListeningGateway } from '@tool-search/preset';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gatewayControl, RestartBudget, restartSignals, type RestartSignals } from '../src/gateway-restart.js';
import { createToolSearchKernel } from '../src/preset.js';

let mock: Awaited<ReturnType<typeof startMockOpenAI>>;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(async () => {
  await mock?.close();
});

const noRestarts: RestartSignals = {
  next: () => new Promise(() => undefined),
  schedule: () => ({ delayMs: 0 }),
  close: () => undefined,
};

function control() {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-check-'));
  const check = gatewayControl(join(dir, 'tool-search.json'), createToolSearchKernel, noRestarts, () => undefined, {
    env: {},
  }).check;
  return { dir, check };
}
const provider = () => ({ baseURL: mock.url, apiKey: 'mock', model: 'mock-model' });
const codeOf = async (work: Promise<unknown>) =>
  work.then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );

describe('the gateway tool check runs every start step', () => {
  it('refuses a listen address other than loopback without keys', async () => {
    const { check } = control();
    const config = { provider: provider(), gateway: { host: '0.0.0.0' } };
    expect(await codeOf(check(config))).toBe(ErrorCode.CONFIG_INVALID);
    expect(await codeOf(check({ provider: provider() }))).toBe('ok');
  });

  it('refuses an API key read from an unset variable', async () => {
    const { check } = control();
    const config = {
      provider: provider(),
      auth: { keys: [{ name: 'ops', env: 'UNSET_GATEWAY_KEY_40', agents: ['main'] }] },
    };
    expect(await codeOf(check(config))).not.toBe('ok');
  });

  it('refuses a provider the upstream cannot be built from (no key)', async () => {
    const { check } = control();
    expect(
      await codeOf(check({ provider: { baseURL: mock.url, model: 'm', apiKeyEnv: 'UNSET_PROVIDER_KEY_40' } })),
    ).not.toBe('ok');
  });

  it('never imports a plugin module', async () => {
    const { dir, check } = control();
    const marker = join(dir, 'imported');
    writeFileSync(
      join(dir, 'evil.mjs'),
      `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'x');\n`,
    );
    await codeOf(check({ provider: provider(), plugins: { './evil.mjs': {} } }));
    expect(existsSync(marker)).toBe(false);
  });
});

describe('restarts are bounded', () => {
  it('the budget: restarts a drain apart, at most two a minute', () => {
    const budget = new RestartBudget();
    expect(budget.plan(0, 2000)).toEqual({ at: 2000 });
    budget.started(2000);
    expect(budget.plan(3000, 0)).toMatchObject({ at: 32_000, deferredBecause: expect.stringContaining('apart') });
    budget.started(32_000);
    expect(budget.plan(40_000, 0).at).toBe(62_000);
  });

  it('a cron job asking for a restart every second gets at most two restarts in a minute', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const signals: number[] = [];
    const kill = vi.spyOn(process, 'kill').mockImplementation(((pid: number, signal: string) => {
      if (pid !== process.pid || signal !== 'SIGUSR1') throw new Error(`unexpected kill ${pid} ${signal}`);
      signals.push(Date.now());
      process.emit('SIGUSR1', 'SIGUSR1');
      return true;
    }) as typeof process.kill);
    const restarts = restartSignals(
      () => true,
      () => undefined,
    );
    try {
      const start = Date.now();
      for (let second = 0; second < 60; second++) {
        restarts.schedule({ delayMs: 0, reason: 'cron' });
        await vi.advanceTimersByTimeAsync(1000);
      }
      const inMinute = signals.filter((at) => at - start < 60_000);
      expect(inMinute.length).toBeGreaterThanOrEqual(1);
      expect(inMinute.length).toBeLessThanOrEqual(2);
      for (let i = 1; i < signals.length; i++) expect(signals[i]! - signals[i - 1]!).toBeGreaterThanOrEqual(30_000);
      expect(signals[0]! - start).toBeLessThan(1000);
    } finally {
      restarts.close();
      kill.mockRestore();
      vi.useRealTimers();
    }
  });
});

describe('a restarted config that does not start', () => {
  it('falls back to the last good config, on its port, instead of exiting', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const busyPort = (busy.address() as { port: number }).port;
    const dir = mkdtempSync(join(tmpdir(), 'run-gateway-fallback-'));
    const catalog = { plugins: { 'fake-catalog': { tools: 3, core: false } }, provider: provider() };
    let next: object = { ...catalog, tools: { toolSearch: false } };
    const listening: ListeningGateway[] = [];
    const lines: string[] = [];
    const controller = new AbortController();
    const done = runGateway({
      load: async () => ({ config: next, path: join(dir, 'tool-search.json') }),
      approvals: null,
      signal: controller.signal,
      log: (line) => void lines.push(line),
      onListening: (gateway) => void listening.push(gateway),
    });
    let stopped: unknown;
    done.catch((error: unknown) => (stopped = error ?? 'stopped'));
    const until = async (what: () => boolean, name: string) => {
      while (!what()) {
        if (stopped)
          throw new Error(`the gateway stopped while waiting for ${name}: ${String(stopped)}\n${lines.join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    try {
      await until(() => listening.length === 1, 'the first start');
      // Passes every check, but its port is taken: only listening fails.
      next = { ...catalog, tools: { toolSearch: { mode: 'directory' } }, gateway: { port: busyPort } };
      process.kill(process.pid, 'SIGUSR1');
      await until(() => listening.length === 2, 'the fallback start');
      expect(lines.some((line) => line.includes('serving the last good config again'))).toBe(true);
      expect(listening[1]!.port).toBe(listening[0]!.port);
      expect(listening[1]!.mode).toBe('direct');
    } finally {
      controller.abort();
      await done.catch(() => undefined); // the failure, if any, was reported by `until`
      busy.close();
    }
  }, 120_000);
});
