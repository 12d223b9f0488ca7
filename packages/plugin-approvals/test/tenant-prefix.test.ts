/**
 * Two deployments sharing one real redis-server with their own `state.redis.keyPrefix` ("a:", "b:"): an approval
 * pending in one is neither listed nor answerable in the other; a second replica on the same prefix answers it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisState, type StateStore } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { SharedApprovalQueue, type ApprovalRequest } from '../src/index.js';

const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn(
    'skipping the tenant-prefix test of the approval queue: redis-server is not installed (apt-get install -y redis-server)',
  );

const request: ApprovalRequest = {
  callId: 'call-1',
  toolId: 'plugin:test:delete_repo',
  name: 'delete_repo',
  source: 'plugin',
  args: { repo: 'x' },
  origin: 'tool_call',
  sessionId: 's1',
  runId: 'r1',
  reason: 'delete_repo',
};

describe.runIf(haveRedis)('approval queues of deployments sharing one Redis', () => {
  let redis: RedisServerHandle;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await redis?.stop();
  });
  const queue = async (keyPrefix: string, replicaId: string) => {
    const state: StateStore = await connectRedisState({ url: redis.url, keyPrefix, replicaId });
    const shared = new SharedApprovalQueue(state);
    closers.push(
      () => state.close(),
      () => shared.close(),
    );
    return shared;
  };

  it('each deployment lists and answers only its own approvals; the same prefix shares them', async () => {
    const [a, a2, b] = await Promise.all([queue('a:', 'a-1'), queue('a:', 'a-2'), queue('b:', 'b-1')]);
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const decided = a.approve(request, { signal: new AbortController().signal, expiresAt });
    await expect.poll(async () => (await a2.list()).length, { timeout: 5_000, interval: 20 }).toBe(1);
    const [pending] = await a2.list();
    expect(await b.list()).toEqual([]);
    expect(await b.get(pending!.id)).toBeUndefined();
    expect(await b.answer(pending!.id, 'allow')).toBe(false);
    expect(await a2.answer(pending!.id, 'deny')).toBe(true);
    expect(await decided).toBe('deny');
  });
});
