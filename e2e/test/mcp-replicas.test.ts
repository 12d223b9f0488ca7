/**
 * Two real `tool-search serve mcp --http 0` processes sharing a real
 * redis-server, behind a round-robin balancer: the official SDK client keeps
 * one MCP session across both (requests alternate), across the death of the
 * replica it initialized on, and its DELETE ends the session for both. A
 * client pinned to MCP 2026-07-28 needs no session at all: its requests
 * alternate replicas and each is answered.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectRedisState, type StateStore } from '@tool-search/state';
import { startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { startReplicaSet, type Replica, type ReplicaSet, type RoundRobin } from '../src/replicas.js';
import { REPLICA_BUDGET_MS, REPLICA_START_MS, replicaPrerequisites } from './replica-prerequisites.js';

const { built, redis: haveRedis } = replicaPrerequisites('the serve mcp replica test');

const KEY_PREFIX = 'mcp-replicas-e2e:';

describe.runIf(built && haveRedis)('serve mcp --http replicas sharing Redis', () => {
  let dir: string;
  let redis: RedisServerHandle;
  let store: StateStore;
  let set: ReplicaSet | undefined;
  let replicas: readonly Replica[] = [];
  let balancer: RoundRobin;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tool-search-mcp-replicas-'));
    redis = await startRedisServer();
    store = await connectRedisState({ url: redis.url, keyPrefix: KEY_PREFIX, replicaId: 'test' });
    const config = join(dir, 'tool-search.json');
    const approvals = { require: ['plugin:fake-catalog:*'], timeoutMs: 20_000 };
    const loopDetection = {
      enabled: true,
      warningThreshold: 2,
      criticalThreshold: 3,
      globalCircuitBreakerThreshold: 10,
      historySize: 10,
    };
    const tools = { approvals, loopDetection };
    await writeFile(
      config,
      JSON.stringify({
        state: { redis: { url: redis.url, keyPrefix: KEY_PREFIX } },
        session: { logDir: join(dir, 'logs') },
        tools,
      }),
    );
    const args = ['serve', 'mcp', '--config', config, '--http', '0', '--refresh', '0'];
    set = await startReplicaSet(['a', 'b'], () => ({ args, cwd: dir, startTimeoutMs: REPLICA_START_MS }));
    ({ replicas, balancer } = set);
  }, REPLICA_BUDGET_MS);
  afterAll(async () => {
    await set?.stop();
    await store?.close();
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers a 2026-07-28 client on either replica, with no session and no affinity', async () => {
    const client = new ModernClient(
      { name: 'replicas-e2e-modern', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    try {
      await client.connect(new ModernTransport(new URL(`${balancer.url}/mcp`)));
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const start = balancer.routed.length;
      for (const query of ['weather forecast', 'rain', 'snow']) {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toEqual([...names].sort());
        const found = await client.callTool({ name: 'tool_search', arguments: { query } });
        expect((found.structuredContent as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
      }
      expect(new Set(balancer.routed.slice(start))).toEqual(new Set([0, 1]));
    } finally {
      await client.close();
    }
  }, 90_000);

  it('asks approvals by elicitation from whichever replica runs the call, and takes the answer on either', async () => {
    const client = new Client(
      { name: 'replicas-e2e-approvals', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${balancer.url}/mcp`));
    try {
      await client.connect(transport);
      const start = balancer.routed.length;
      const results: CallToolResult[] = [];
      const found = (await client.callTool({
        name: 'tool_search',
        arguments: { query: 'weather forecast' },
      })) as CallToolResult;
      const id = (found.structuredContent as { hits: { id: string }[] }).hits[0]!.id;
      for (const query of ['rain', 'snow', 'wind']) {
        await client.listTools(); // one more request: the calls and answers shift across the replicas
        results.push(
          (await client.callTool({ name: 'tool_call', arguments: { id, args: { query } } })) as CallToolResult,
        );
      }
      expect(results.map((result) => (result.content as { text: string }[])[0]!.text)).toEqual([
        expect.stringMatching(/^FAKE_TOOL_OK .* \{"query":"rain"\}$/),
        expect.stringMatching(/^FAKE_TOOL_OK .* \{"query":"snow"\}$/),
        expect.stringMatching(/^FAKE_TOOL_OK .* \{"query":"wind"\}$/),
      ]);
      expect(asked).toHaveLength(3);
      expect(new Set(balancer.routed.slice(start))).toEqual(new Set([0, 1]));
      await transport.terminateSession();
    } finally {
      await client.close();
    }
  }, 90_000);

  it('blocks a looping client at the critical threshold although its calls alternate replicas (one run session)', async () => {
    const client = new Client({ name: 'replicas-e2e-loop', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { approve: true } }));
    const transport = new StreamableHTTPClientTransport(new URL(`${balancer.url}/mcp`));
    try {
      await client.connect(transport);
      const found = (await client.callTool({
        name: 'tool_search',
        arguments: { query: 'weather forecast' },
      })) as CallToolResult;
      const id = (found.structuredContent as { hits: { id: string }[] }).hits[0]!.id;
      const served: number[] = [];
      const outcomes: string[] = [];
      for (let i = 0; i < 3; i++) {
        // A call and its approval answer are two requests: one more keeps successive calls on alternate replicas.
        if (i > 0) await client.listTools();
        served.push(balancer.routed.length);
        const result = (await client.callTool({
          name: 'tool_call',
          arguments: { id, args: { query: 'same' } },
        })) as CallToolResult;
        outcomes.push((result.content as { text: string }[])[0]!.text);
      }
      const replicasOf = served.map((index) => balancer.routed[index]);
      expect(replicasOf[0]).not.toBe(replicasOf[1]);
      expect(replicasOf[1]).not.toBe(replicasOf[2]);
      expect(outcomes.slice(0, 2)).toEqual([
        expect.stringMatching(/^FAKE_TOOL_OK /),
        expect.stringMatching(/^FAKE_TOOL_OK /),
      ]);
      expect(outcomes[2]).toMatch(/TOOL_CALL_BLOCKED.*loop/i);
      await transport.terminateSession();
    } finally {
      await client.close();
    }
  }, 90_000);

  it('serves one MCP session alternately, survives the first replica, and ends it everywhere on DELETE', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${balancer.url}/mcp`), {
      reconnectionOptions: {
        maxRetries: 2,
        initialReconnectionDelay: 100,
        maxReconnectionDelay: 500,
        reconnectionDelayGrowFactor: 2,
      },
    });
    // The fake tools need an approval (config above): this client grants every one.
    const client = new Client({ name: 'replicas-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { approve: true } }));
    try {
      const initialize = balancer.routed.length;
      await client.connect(transport);
      const sessionId = transport.sessionId!;
      // The replica the initialize landed on ("A") is the one killed below.
      const first = balancer.routed[initialize]!;
      const record = JSON.parse((await store.get(`mcp:session:${sessionId}`))!) as {
        replica: string;
        runSessionId: string;
      };
      expect(record.replica).toBe(replicas[first]!.id);

      const before = balancer.routed.length;
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
        'tool_call',
        'tool_describe',
        'tool_search',
      ]);
      const weather = (await client.callTool({
        name: 'tool_search',
        arguments: { query: 'weather forecast' },
      })) as CallToolResult;
      const email = (await client.callTool({
        name: 'tool_search',
        arguments: { query: 'send an email' },
      })) as CallToolResult;
      expect([weather.isError, email.isError]).toEqual([undefined, undefined]);
      const hit = (weather.structuredContent as { hits: { id: string }[] }).hits[0]!.id;
      const called = (await client.callTool({
        name: 'tool_call',
        arguments: { id: hit, args: { query: 'rain' } },
      })) as CallToolResult;
      // The demo fake's marker, then its plain "did nothing" (issue 46 item 8).
      expect(called.content).toEqual([
        { type: 'text', text: `FAKE_TOOL_OK ${hit.split(':').at(-1)} {"query":"rain"}` },
        { type: 'text', text: expect.stringContaining('did nothing') },
      ]);
      expect(new Set(balancer.routed.slice(before))).toEqual(new Set([0, 1])); // both replicas served calls

      // The runs on both replicas log under the one run session id the record names.
      const runsIn = async () => {
        const lines = (await readFile(join(dir, 'logs', `${record.runSessionId}.jsonl`), 'utf8')).trim().split('\n');
        return lines.map((line) => JSON.parse(line) as { type: string; runId: string; sessionId: string });
      };
      // Log lines are appended after the reply (the recorder's chain), so the count is polled.
      const searchesLogged = async () => (await runsIn()).filter((entry) => entry.type === 'search');
      await expect.poll(async () => (await searchesLogged()).length, { timeout: 10_000, interval: 50 }).toBe(2);
      const searches = await searchesLogged();
      expect(new Set(searches.map((entry) => entry.runId)).size).toBe(2);

      await replicas[first]!.stop('SIGKILL');
      balancer.remove(first);
      const after = (await client.callTool({
        name: 'tool_search',
        arguments: { query: 'calendar event' },
      })) as CallToolResult;
      expect(after.isError).toBeUndefined();
      expect((await client.listTools()).tools).toHaveLength(3);
      await expect.poll(async () => (await searchesLogged()).length, { timeout: 10_000, interval: 50 }).toBe(3);

      await transport.terminateSession();
      expect(await store.get(`mcp:session:${sessionId}`)).toBeUndefined();
      const late = await fetch(`${balancer.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' }),
      });
      expect(late.status).toBe(404);
      expect((await readdir(join(dir, 'logs'))).includes(`${record.runSessionId}.jsonl`)).toBe(true);
    } finally {
      await client.close();
    }
  }, 90_000);
});
