/**
 * Two `serveHttp` deployments sharing one real redis-server with their own `state.redis.keyPrefix` ("a:", "b:"): an
 * MCP session opened on one is unknown to the other (404), while a second replica on the same prefix serves it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectRedisState } from '@tool-search/state';
import { redisServerAvailable, startRedisServer } from '@tool-search/testing';
import { serveHttp } from '../src/index.js';
import { call, text } from './helpers.js';
import { connectBalanced, raw, whoamiKernel } from './replicas-kit.js';

const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn(
    'skipping the tenant-prefix test of MCP HTTP sessions: redis-server is not installed (apt-get install -y redis-server)',
  );

describe.runIf(haveRedis)('MCP sessions of deployments sharing one Redis', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });

  it('a session of deployment "a:" is unknown to "b:" and served by another "a:" replica', async () => {
    const redis = await startRedisServer();
    cleanup.push(() => redis.stop());
    const kernel = whoamiKernel();
    cleanup.push(() => kernel.close());
    const serve = async (keyPrefix: string, replicaId: string) => {
      const state = await connectRedisState({ url: redis.url, keyPrefix, replicaId });
      cleanup.push(() => state.close());
      const server = await serveHttp({ kernel, mode: 'directory', refreshIntervalMs: 0, state });
      cleanup.push(() => server.close());
      return server;
    };
    const a = await serve('a:', 'a-1');
    const a2 = await serve('a:', 'a-2');
    const b = await serve('b:', 'b-1');
    // The kit's replica "b" is a2 here: the other replica of deployment "a:".
    const balanced = await connectBalanced({ a: a.url, b: a2.url }, 'a');
    cleanup.push(() => balanced.client.close());
    const runSession = text(await call(balanced.client, 'whoami'));
    const sessionId = balanced.transport.sessionId!;

    expect((await raw(b.url, sessionId)).status).toBe(404);
    expect(b.sessions).toBe(0);
    balanced.pin('b');
    expect(text(await call(balanced.client, 'whoami'))).toBe(runSession);
    expect(a2.sessions).toBe(1);
  });
});
