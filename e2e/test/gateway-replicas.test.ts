/**
 * Two real `tool-search gateway` processes sharing a real redis-server, behind
 * a round-robin balancer: loop detection counts across them, an approval asked
 * on one is answered on the other, a session outlives the replica that
 * started it, and a Redis outage fails closed while read-only routes answer.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { StateSessionStore } from '@tool-search/sessions';
import { connectRedisState } from '@tool-search/state';
import { startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { scriptedTurn, writeReplicaConfig, type ReplicaSetup } from '../src/gateway-replicas.js';
import { startReplicaSet, type Replica, type ReplicaSet, type RoundRobin } from '../src/replicas.js';
import { REPLICA_BUDGET_MS, REPLICA_START_MS, replicaPrerequisites } from './replica-prerequisites.js';

const { built, redis: haveRedis } = replicaPrerequisites('the gateway replica tests');

const read = { tool: 'read', args: { path: 'notes.txt' } };

/** The replicas `a` and `b` of `startGatewayReplicas`, each given REPLICA_START_MS to come up on a loaded machine. */
function startGatewayReplicas(setup: ReplicaSetup): Promise<ReplicaSet> {
  const args = ['gateway', '--config', setup.config, '--mode', 'direct', '--approvals', 'http'];
  return startReplicaSet(['a', 'b'], () => ({
    args,
    cwd: setup.dir,
    env: { TOOL_SEARCH_STATE_DIR: join(setup.dir, 'state') },
    startTimeoutMs: REPLICA_START_MS,
  }));
}

describe.skipIf(!built || !haveRedis)('gateway replicas sharing Redis', () => {
  let mock: MockOpenAI;
  let redis: RedisServerHandle;
  let setup: ReplicaSetup;
  let set: ReplicaSet | undefined;
  let replicas: readonly Replica[] = [];
  let balancer: RoundRobin;

  beforeAll(async () => {
    mock = await startMockOpenAI();
    redis = await startRedisServer();
    setup = await writeReplicaConfig(mock.url, redis.url);
    set = await startGatewayReplicas(setup);
    ({ replicas, balancer } = set);
  }, REPLICA_BUDGET_MS);

  afterAll(async () => {
    await set?.stop();
    await redis?.stop();
    await mock?.close();
  });

  it('blocks a looping model at the critical threshold although its calls alternate replicas', async () => {
    const first = balancer.routed.length;
    const turns = [];
    for (let i = 0; i < 3; i++) turns.push(await scriptedTurn(balancer.url, 'loop-shared', [read]));
    expect(balancer.routed.slice(first)).toEqual([0, 1, 0]);
    expect(turns.map((turn) => turn.toolCalls.map((call) => call.status))).toEqual([['ok'], ['ok'], ['blocked']]);
  });

  it('an approval requested through A is listed and approved through B, and A then runs the tool', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const asked = scriptedTurn(a.origin, 'approval-session', [
      { tool: 'write', args: { path: 'approved.txt', content: 'approved on b' } },
    ]);
    let pending: { id: string; request: { name: string } }[] = [];
    await expect
      .poll(
        async () =>
          (pending = ((await (await fetch(`${b.url}/approvals`)).json()) as { approvals: typeof pending }).approvals)
            .length,
        { timeout: 10_000, interval: 50 },
      )
      .toBe(1);
    expect(pending[0]!.request.name).toBe('write');
    const answer = await fetch(`${b.url}/approvals/${pending[0]!.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'allow' }),
    });
    expect(answer.status).toBe(200);
    const turn = await asked;
    expect(turn.toolCalls).toEqual([expect.objectContaining({ name: 'write', status: 'ok' })]);
    expect(await readFile(join(setup.workspace, 'approved.txt'), 'utf8')).toBe('approved on b');
    // Answered once, on B: A has nothing pending either.
    expect(((await (await fetch(`${a.url}/approvals`)).json()) as { approvals: unknown[] }).approvals).toEqual([]);
  });

  it("after A is killed mid-session, B continues the session with A's turns in its history", async () => {
    const [a] = replicas as [Replica, Replica];
    const origin = a.origin;
    await scriptedTurn(origin, 'survivor', [{ tool: 'read', args: { path: 'notes.txt' } }]);
    await scriptedTurn(origin, 'survivor', [{ tool: 'read', args: { path: 'notes.txt', offset: 1 } }]);
    // A records a turn just after answering it: wait until both turns (user, tool, assistant each) are in Redis, then kill it.
    const state = await connectRedisState({ url: redis.url, replicaId: 'test' });
    try {
      const store = new StateSessionStore(state);
      await expect
        .poll(async () => (await store.get('survivor'))?.messageCount, { timeout: 10_000, interval: 50 })
        .toBe(6);
    } finally {
      await state.close();
    }
    await a.stop('SIGKILL');
    balancer.remove(0);
    const first = balancer.routed.length;
    const turn = await scriptedTurn(balancer.url, 'survivor', [{ tool: 'sessions_history', args: {} }]);
    expect(balancer.routed.slice(first)).toEqual([1]);
    const history = JSON.parse(turn.content.replace(/^Steps done\. Last result: /, '')) as {
      messages: { role: string; content: string }[];
    };
    const users = history.messages.filter((m) => m.role === 'user').map((m) => m.content);
    // A's two turns; B's own user message may or may not be recorded yet when the tool reads the transcript.
    expect(users.slice(0, 2)).toEqual([
      expect.stringContaining('"path":"notes.txt"}'),
      expect.stringContaining('"offset":1'),
    ]);
    expect(history.messages.filter((m) => m.role === 'assistant')).toHaveLength(2);
  });

  it('during a Redis outage read-only routes answer, health is 503, loop-checked calls are blocked with STATE_UNAVAILABLE; after it calls work', async () => {
    const b = replicas[1]!;
    await redis.stop();
    try {
      expect((await fetch(`${b.url}/models`)).status).toBe(200);
      const health = await fetch(`${b.url}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ replica: 'b', state: { kind: 'redis', ok: false } });
      const listing = await fetch(`${b.url}/approvals`);
      expect(listing.status).toBe(503);
      expect(await listing.json()).toMatchObject({ error: { code: 'STATE_UNAVAILABLE' } });
      // `edit` needs no approval, so only loop detection stands between the model and the file.
      const turn = await scriptedTurn(balancer.url, 'outage', [
        { tool: 'edit', args: { path: 'notes.txt', oldText: 'the notes', newText: 'edited during the outage' } },
      ]);
      expect(turn.toolCalls).toEqual([expect.objectContaining({ name: 'edit', status: 'blocked' })]);
      expect(turn.content).toContain('STATE_UNAVAILABLE');
      expect(await readFile(join(setup.workspace, 'notes.txt'), 'utf8')).toBe('the notes\n');
    } finally {
      await redis.start();
    }
    await expect
      .poll(async () => (await fetch(`${b.url}/health`)).status, { timeout: 15_000, interval: 100 })
      .toBe(200);
    const after = await scriptedTurn(balancer.url, 'outage', [read]);
    expect(after.toolCalls).toEqual([expect.objectContaining({ name: 'read', status: 'ok' })]);
  });
});

describe.skipIf(!built)('gateway replicas without shared state (the control)', () => {
  let mock: MockOpenAI;
  let set: ReplicaSet | undefined;

  // One pair of replicas for the control and the harness check below (a replica start is about a second of CPU).
  beforeAll(async () => {
    mock = await startMockOpenAI();
    set = await startGatewayReplicas(await writeReplicaConfig(mock.url));
  }, REPLICA_BUDGET_MS);

  afterAll(async () => {
    await set?.stop();
    await mock?.close();
  });

  it('let the same alternating loop through: each replica counts only its own calls', async () => {
    const { balancer } = set!;
    const turns = [];
    for (let i = 0; i < 4; i++) turns.push(await scriptedTurn(balancer.url, 'loop-unshared', [read]));
    expect(balancer.routed).toEqual([0, 1, 0, 1]);
    expect(turns.map((turn) => turn.toolCalls.map((call) => call.status))).toEqual([['ok'], ['ok'], ['ok'], ['ok']]);
  });

  // The harness itself (src/replicas.ts), without Redis: real processes behind the balancer, which alternates between
  // them and skips one that died once it is taken out of the rotation.
  it('the replica harness alternates requests between real gateway processes, skipping one that died', async () => {
    const { balancer, replicas } = set!;
    const first = balancer.routed.length;
    for (let i = 0; i < 4; i++) expect((await fetch(`${balancer.url}/v1/models`)).status).toBe(200);
    expect(balancer.routed.slice(first)).toEqual([0, 1, 0, 1]);
    await replicas[0]!.stop('SIGKILL');
    balancer.remove(0);
    expect((await fetch(`${balancer.url}/v1/models`)).status).toBe(200);
    expect(balancer.routed.at(-1)).toBe(1);
  });
});
