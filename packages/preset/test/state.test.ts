// The preset hands its state store to exec (session owners), telemetry (session counters) and cron (jobs in Redis).
import { chownSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Kernel, type ToolCallOutcome } from '@tool-search/kernel';
import type { ToolSearchConfig } from '@tool-search/config';
import { createSessionHost } from '@tool-search/sessions';
import { createStateStore, MemoryStateStore, type StateStore } from '@tool-search/state';
import { sessionCounters } from '@tool-search/telemetry';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { createToolSearchKernel } from '@tool-search/preset';
import { ExecErrors, probeBubblewrap } from '@tool-search/plugin-exec';
import { noteSkipped } from '@tool-search/testing';

const sandbox = probeBubblewrap('bwrap').ok;
if (!sandbox) noteSkipped('the exec case of the preset state test', 'bubblewrap', 'bwrap does not run here');

const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn(
    'skipping the Redis case of the preset state test: redis-server is not installed (apt-get install -y redis-server)',
  );
let redis: RedisServerHandle | undefined;
const kernels: Kernel[] = [];
const stores: StateStore[] = [];
beforeAll(async () => {
  if (haveRedis) redis = await startRedisServer();
});
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((k) => k.close()));
  await Promise.all(stores.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await redis?.stop();
});

/** A workspace the sandbox can use: a root gateway runs commands as uid 65534 (the preset's default one is its). */
const workspace = () => sandboxUsable(realpathSync(mkdtempSync(join(tmpdir(), 'preset-state-'))));
function sandboxUsable(ws: string): string {
  if (process.getuid?.() === 0) chownSync(ws, 65534, 65534);
  return ws;
}
const config = (): ToolSearchConfig => ({
  plugins: { core: { workspace: workspace() } },
  tools: { toolSearch: false, exec: { security: 'full', ask: 'off' } } as ToolSearchConfig['tools'],
});
const code = (outcome: ToolCallOutcome) => (outcome.status === 'error' ? outcome.error.code : outcome.status);

async function kernelWith(state: StateStore, extra: { cronDir?: string } = {}): Promise<Kernel> {
  const { kernel } = await createToolSearchKernel(config(), {
    state,
    ...(extra.cronDir ? { sessionHost: createSessionHost(), cronDir: extra.cronDir } : {}),
  });
  kernels.push(kernel);
  return kernel;
}

describe("the preset's state store", () => {
  it.skipIf(!sandbox)(
    "reaches exec (a background session is its replica's) and telemetry (counters summed across replicas)",
    async () => {
      const state = new MemoryStateStore({ replicaId: 'gw-a' });
      const a = await (await kernelWith(state)).createRun({ sessionId: 's' });
      const b = await (await kernelWith(state.asReplica('gw-b'))).createRun({ sessionId: 's' });
      const started = await a.call('exec', { command: 'sleep 0.2', background: true });
      const sessionId =
        started.status === 'ok' ? (started.result.structuredContent as { sessionId: string }).sessionId : '';
      expect(code(await b.call('process', { action: 'poll', sessionId }))).toBe(ExecErrors.PROCESS_ON_OTHER_REPLICA);
      await vi.waitFor(async () => expect(await sessionCounters(state, 's')).toMatchObject({ calls: 2, errors: 1 }));
    },
  );

  it('keeps cron jobs in its folder with the in-process store, in Redis with a Redis store', async () => {
    const memory = await (await kernelWith(new MemoryStateStore(), { cronDir: join(workspace(), 'cron') })).createRun({
      sessionId: 'owner',
    });
    const local = await memory.call('cron', { action: 'status' });
    expect(local.status === 'ok' && local.result.structuredContent).toMatchObject({
      dir: expect.stringContaining('cron'),
    });
    if (!haveRedis) return;
    const shared = await createStateStore({
      redis: { url: redis!.url, keyPrefix: 'preset-state:' },
      replicaId: 'gw-r',
    });
    stores.push(shared);
    const run = await (await kernelWith(shared, { cronDir: join(workspace(), 'cron') })).createRun({
      sessionId: 'owner',
    });
    const status = await run.call('cron', { action: 'status' });
    expect(status.status === 'ok' && status.result.structuredContent).toMatchObject({
      store: 'redis',
      replica: 'gw-r',
    });
  });

  it("session_status shows the session's telemetry counters from every replica", async () => {
    const state = new MemoryStateStore({ replicaId: 'gw-a' });
    const host = createSessionHost();
    const kernelOn = async (store: StateStore) => {
      const { kernel } = await createToolSearchKernel(config(), { state: store, sessionHost: host });
      kernels.push(kernel);
      return kernel.createRun({ sessionId: 'counted' });
    };
    const a = await kernelOn(state);
    const b = await kernelOn(state.asReplica('gw-b'));
    await host.store.upsert('counted', {});
    await a.call('read', { path: 'missing-a.txt' });
    await b.call('read', { path: 'missing-b.txt' });
    await vi.waitFor(async () => expect((await sessionCounters(state, 'counted')).calls).toBe(2));
    const outcome = await a.call('session_status', {});
    const card =
      outcome.status === 'ok'
        ? (outcome.result.structuredContent as { sessionKey: string; counters: Record<string, number> })
        : undefined;
    expect(card).toMatchObject({ sessionKey: 'agent:main:counted', counters: { calls: 2, errors: 2 } });
  });
});
