/**
 * Parked 2026-07-28 calls across replicas on a real redis-server: a call
 * parked for the client's `input_required` answer on one replica is resumed
 * by a retry that lands on the other (relayed to the holder over the
 * store's pub/sub), only for the API key that started it; while Redis is
 * down a retry on the other replica is a typed `STATE_UNAVAILABLE` error,
 * not a hang, and the holder still resumes its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { createApiKeys, hashApiKey } from '@tool-search/auth';
import type { Kernel } from '@tool-search/kernel';
import { connectRedisState, StateErrors, type StateStore } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { serveHttp, type HttpMcpHandle } from '../src/index.js';
import { whoamiKernel, type Name } from './replicas-kit.js';

const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn(
    'skipping the parked-call replica tests: redis-server is not installed (apt-get install -y redis-server)',
  );

const MODERN = '2026-07-28';
const KEY_A = 'key-a-parked-0123456789';
const KEY_B = 'key-b-parked-0123456789';

describe.runIf(haveRedis)('2026-07-28 calls parked on one replica, resumed through another', () => {
  let redis: RedisServerHandle;
  const stores: StateStore[] = [];
  let kernel: Kernel;
  const replicas = {} as Record<Name, HttpMcpHandle>;
  const clients: Client[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    const keyPrefix = `mcp-parked-${process.pid}:`;
    for (const replicaId of ['a', 'b'] as const)
      stores.push(await connectRedisState({ url: redis.url, keyPrefix, replicaId, commandTimeoutMs: 500 }));
    kernel = whoamiKernel();
    const auth = createApiKeys({
      keys: [
        { name: 'a', hash: hashApiKey(KEY_A), agents: ['*'] },
        { name: 'b', hash: hashApiKey(KEY_B), agents: ['*'] },
      ],
    });
    replicas.a = await serveHttp({ kernel, mode: 'directory', refreshIntervalMs: 0, auth, state: stores[0]! });
    replicas.b = await serveHttp({ kernel, mode: 'directory', refreshIntervalMs: 0, auth, state: stores[1]! });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await replicas.a?.close();
    await replicas.b?.close();
    await Promise.all(stores.map((store) => store.close().catch(() => undefined)));
    await kernel?.close();
    await redis?.stop();
  });

  it('resumes the call on the replica that parked it when the retry lands on the other', async () => {
    const log: { replica: Name; method: string; retry: boolean }[] = [];
    // A balancer without affinity: the two calls' requests go a → b, then b → a (everything else to a).
    const route: Name[] = ['a', 'b', 'b', 'a'];
    const transport = new StreamableHTTPClientTransport(new URL(replicas.a.url), {
      requestInit: { headers: { authorization: `Bearer ${KEY_A}` } },
      fetch: (_input, init) => {
        const body =
          typeof init?.body === 'string'
            ? (JSON.parse(init.body) as { method?: string; params?: { requestState?: unknown } })
            : {};
        const replica: Name = body.method === 'tools/call' ? (route.shift() ?? 'a') : 'a';
        log.push({
          replica,
          method: body.method ?? String(init?.method),
          retry: body.params?.requestState !== undefined,
        });
        return fetch(replicas[replica].url, init);
      },
    });
    const client = new Client(
      { name: 'balanced', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'ada' } }));
    await client.connect(transport);
    clients.push(client);

    for (let round = 0; round < 2; round++) {
      const result = (await client.callTool({ name: 'ask', arguments: {} })) as CallToolResult;
      expect(result.content).toEqual([{ type: 'text', text: 'hello ada' }]);
    }
    const calls = log.filter((entry) => entry.method === 'tools/call');
    // Each call: its first request and its retry, on different replicas (both directions relayed once).
    expect(calls.map((entry) => entry.retry)).toEqual([false, true, false, true]);
    expect(calls.map((entry) => entry.replica)).toEqual(['a', 'b', 'b', 'a']);
  });

  it("refuses another key's retry on the other replica, and the owner's retry there still resumes", async () => {
    const first = await rawCall(replicas.a.url, KEY_A, {});
    const requestState = first.result?.requestState as string;
    const [key] = Object.keys(first.result?.inputRequests as object);
    const answer = { [key!]: { action: 'accept', content: { name: 'eve' } } };
    const foreign = await rawCall(replicas.b.url, KEY_B, { requestState, inputResponses: answer });
    expect(foreign.error?.code).toBe(-32602);
    const owner = await rawCall(replicas.b.url, KEY_A, {
      requestState,
      inputResponses: { [key!]: { action: 'accept', content: { name: 'bob' } } },
    });
    expect(owner.result?.content).toEqual([{ type: 'text', text: 'hello bob' }]);
  });

  it('answers a retry on the other replica with STATE_UNAVAILABLE while Redis is down, not a hang; the holder still resumes it', async () => {
    const first = await rawCall(replicas.a.url, KEY_A, {});
    const requestState = first.result?.requestState as string;
    const [key] = Object.keys(first.result?.inputRequests as object);
    const answer = { [key!]: { action: 'accept', content: { name: 'kay' } } };
    await redis.stop();
    try {
      const elsewhere = await rawCall(replicas.b.url, KEY_A, { requestState, inputResponses: answer });
      expect(elsewhere.error?.data?.code).toBe(StateErrors.STATE_UNAVAILABLE);
      const holder = await rawCall(replicas.a.url, KEY_A, { requestState, inputResponses: answer });
      expect(holder.result?.content).toEqual([{ type: 'text', text: 'hello kay' }]);
    } finally {
      await redis.start();
      for (let tries = 0; !(await stores[0]!.ping()) || !(await stores[1]!.ping()); tries++) {
        if (tries > 200) throw new Error('the Redis clients did not reconnect within 20 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }, 60_000);
});

/** A raw 2026-07-28 `tools/call` of `ask` (declaring elicitation) with `key`: the JSON-RPC response body. */
async function rawCall(
  url: string,
  key: string,
  retry: Record<string, unknown>,
): Promise<{ result?: Record<string, unknown>; error?: { code: number; data?: { code?: string } } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'ask',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'ask',
        arguments: {},
        ...retry,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
        },
      },
    }),
  });
  const payload = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('event-stream')) return JSON.parse(payload);
  const events = payload.split('\n').filter((line) => line.startsWith('data: '));
  return JSON.parse(events.at(-1)!.slice(6));
}
