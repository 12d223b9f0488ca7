/**
 * `serveHttp` replicas on a real redis-server that goes away: sessions held
 * locally keep working, the others get 503 STATE_UNAVAILABLE, and the
 * replicas recover when Redis is back.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { connectRedisState, StateErrors } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { serveHttp } from '../src/index.js';
import { call, text } from './helpers.js';
import { connectBalanced, raw, whoamiKernel } from './replicas-kit.js';

const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn(
    'skipping the Redis outage test of serveHttp replicas: redis-server is not installed (apt-get install -y redis-server)',
  );

describe.runIf(haveRedis)('serveHttp replicas during a Redis outage', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });

  it('keeps sessions held locally working, answers the others 503 STATE_UNAVAILABLE, and recovers', async () => {
    const redis: RedisServerHandle = await startRedisServer();
    cleanup.push(() => redis.stop());
    const keyPrefix = `mcp-outage-${process.pid}:`;
    const [stateA, stateB] = await Promise.all(
      ['a', 'b'].map((replicaId) => connectRedisState({ url: redis.url, keyPrefix, replicaId, commandTimeoutMs: 500 })),
    );
    cleanup.push(
      () => stateA!.close(),
      () => stateB!.close(),
    );
    const kernel = whoamiKernel();
    cleanup.push(() => kernel.close());
    const a = await serveHttp({ kernel, mode: 'directory', refreshIntervalMs: 0, state: stateA! });
    cleanup.push(() => a.close());
    const b = await serveHttp({ kernel, mode: 'directory', refreshIntervalMs: 0, state: stateB! });
    cleanup.push(() => b.close());
    const balanced = await connectBalanced({ a: a.url, b: b.url }, 'a');
    cleanup.push(() => balanced.client.close());
    const before = text(await call(balanced.client, 'whoami'));
    const sessionId = balanced.transport.sessionId!;

    await redis.stop();
    expect(text(await call(balanced.client, 'whoami'))).toBe(before);
    const elsewhere = await raw(b.url, sessionId);
    expect(elsewhere.status).toBe(503);
    expect(elsewhere.error?.data?.code).toBe(StateErrors.STATE_UNAVAILABLE);
    const fresh = await fetch(b.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(fresh.status).toBe(503);
    expect(b.sessions).toBe(0);
    // A DELETE cannot reach the record: refused, and the session goes on where it is held.
    expect((await raw(a.url, sessionId, 'DELETE')).status).toBe(503);
    expect(text(await call(balanced.client, 'whoami'))).toBe(before);

    // Back, but empty (no persistence): the session's record is gone, so it ends; a new one works on both.
    await redis.start();
    for (let tries = 0; !(await stateA!.ping()) || !(await stateB!.ping()); tries++) {
      if (tries > 100) throw new Error('the Redis clients did not reconnect within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await raw(a.url, sessionId)).status).toBe(404);
    const again = await connectBalanced({ a: a.url, b: b.url });
    cleanup.push(() => again.client.close());
    expect(text(await call(again.client, 'whoami'))).toBe(text(await call(again.client, 'whoami')));
  }, 60_000);
});
