import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { StateSessionStore } from '@tool-search/sessions';
import { createStateStore } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { listSessions, readSession, startInspectServer } from '../src/index.js';

const noRedis = redisServerAvailable() ? undefined : 'redis-server is not installed (apt-get install -y redis-server)';
if (noRedis) console.log(`skipping inspect session-store tests: ${noRedis}`);

describe.skipIf(noRedis !== undefined)('sessions of the Redis store', () => {
  let redis: RedisServerHandle;
  beforeAll(async () => {
    redis = await startRedisServer();
  }, 60_000);
  afterAll(async () => {
    await redis?.stop();
  });

  it("lists the store's sessions beside the log files and shows one with its transcript", async () => {
    const state = await createStateStore({ redis: { url: redis.url } });
    try {
      // What the gateway's session host writes, through the same store class replicas share.
      const store = new StateSessionStore(state);
      await store.upsert('spawned-1', {
        agentId: 'main',
        kind: 'spawn',
        status: 'idle',
        turns: 1,
        model: 'mock-model',
      });
      await store.append('spawned-1', { role: 'user', content: 'summarize the report', at: Date.now() });
      await store.append('spawned-1', { role: 'assistant', content: null, at: Date.now(), toolCalls: ['read'] });
      await store.append('spawned-1', {
        role: 'tool',
        content: null,
        at: Date.now(),
        tool: { name: 'read', status: 'ok' },
      });
      const dir = mkdtempSync(join(tmpdir(), 'tool-search-inspect-logs-'));
      const list = await listSessions({ dir, store });
      expect(list).toEqual([expect.objectContaining({ id: 'spawned-1', origin: 'store', status: 'idle' })]);
      const session = await readSession({ dir, store }, 'spawned-1', 'store');
      expect(session.record).toMatchObject({ kind: 'spawn', turns: 1 });
      expect(session.transcript?.map((line) => line.role)).toEqual(['user', 'assistant', 'tool']);

      const kernel = createKernel({ plugins: [] });
      const server = await startInspectServer({ kernel, config: {}, sessions: { dir, store }, countTokens: false });
      try {
        const answer = (await (await fetch(new URL('/api/session?id=spawned-1&origin=store', server.url))).json()) as {
          transcript: { tool?: { name: string } }[];
        };
        expect(answer.transcript[2]?.tool?.name).toBe('read');
        expect((await fetch(new URL('/api/session?id=unknown&origin=store', server.url))).status).toBe(404);
      } finally {
        await server.close();
        await kernel.close();
      }
    } finally {
      await state.close();
    }
  }, 60_000);
});

describe('session log files', () => {
  it('lists an unreadable log as such instead of failing the list, and a missing folder as empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-search-inspect-logs-'));
    writeFileSync(join(dir, 'broken.jsonl'), 'not json\nnot json either\n');
    writeFileSync(join(dir, '..hidden.jsonl'), '');
    expect(await listSessions({ dir })).toEqual([expect.objectContaining({ id: 'broken', status: 'unreadable' })]);
    expect(await listSessions({ dir: join(dir, 'missing') })).toEqual([]);
    await expect(readSession({ dir }, 'broken', 'log')).rejects.toMatchObject({ code: 'SESSION_LOG_INVALID' });
  });
});
