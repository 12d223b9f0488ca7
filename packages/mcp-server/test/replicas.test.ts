/**
 * Two `serveHttp` replicas over one state store (the in-process store's two
 * replica views, and a real redis-server for the outage): one MCP session,
 * the official SDK client, requests alternating between the replicas.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpCallForwarding } from '@tool-search/plugin-mcp';
import { createKernel, ErrorCode, type Kernel, type KernelPlugin } from '@tool-search/kernel';
import { connectRedisState, MemoryStateStore, type StateStore } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { elicitationApprovals, serveHttp, type ElicitationApprovals, type HttpMcpHandle } from '../src/index.js';
import { call, text } from './helpers.js';

type Name = 'a' | 'b';

type Elicit = NonNullable<McpCallForwarding['elicitInput']>;

/** Calls of `wait` in flight: each resolves its `aborted` when its signal aborts. */
const waiting: { started: () => void; aborted: () => void }[] = [];

/** `whoami` answers with the run session id it ran under; `ask` elicits a name from the client, when the server knows the client can be asked; `wait` waits for its cancel. */
function whoamiKernel(): Kernel {
  const plugin: KernelPlugin = {
    name: 'whoami-plugin',
    apply({ hooks }) {
      hooks.listTools.tap((sink) =>
        sink.add([
          {
            name: 'whoami',
            source: 'plugin',
            owner: 'test',
            description: 'Says which run session it runs in',
            inputSchema: { type: 'object', properties: {} },
            execute: (_args, ctx) => ({ content: [{ type: 'text', text: ctx.run.sessionId }] }),
          },
          {
            name: 'wait',
            source: 'plugin',
            owner: 'test',
            description: 'Waits until cancelled',
            inputSchema: { type: 'object', properties: {} },
            execute: (_args, ctx) =>
              new Promise((resolve) => {
                const hooks = waiting.shift();
                ctx.signal.addEventListener('abort', () => {
                  hooks?.aborted();
                  resolve({ content: [{ type: 'text', text: 'cancelled' }] });
                });
                hooks?.started();
              }),
          },
          {
            name: 'ask',
            source: 'plugin',
            owner: 'test',
            description: 'Asks the client for a name',
            inputSchema: { type: 'object', properties: {} },
            execute: async (_args, ctx) => {
              const elicit = (ctx.scope as { mcp?: { elicitInput?: Elicit } } | undefined)?.mcp?.elicitInput;
              if (!elicit) return { content: [{ type: 'text', text: 'cannot ask' }] };
              const answer = await elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, ctx.signal);
              return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
            },
          },
        ]),
      );
      hooks.materialize.for('directory').tap((draft, ctx) => {
        draft.tools.push(...ctx.searchable.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, toolId: tool.id })));
        return draft;
      });
    },
  };
  return createKernel({ plugins: [plugin] });
}

interface Balanced {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  /** Which replica got each request, and its JSON-RPC method (or the HTTP method). */
  readonly log: { replica: Name; what: string }[];
  /** Sends every request to one replica (undefined: alternate POST and DELETE; the GET stream stays on `a`). */
  pin(replica: Name | undefined): void;
}

/** The SDK client behind an in-test round-robin: its `fetch` goes to the next replica in turn. */
async function connectBalanced(urls: Record<Name, string>, pinned?: Name): Promise<Balanced> {
  const log: Balanced['log'] = [];
  let turn = 0;
  const transport = new StreamableHTTPClientTransport(new URL(urls.a), {
    fetch: (input, init) => {
      const method = init?.method ?? 'GET';
      const replica: Name = pinned ?? (method === 'GET' ? 'a' : turn++ % 2 === 0 ? 'a' : 'b');
      const what = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }).method ?? 'response' : method;
      log.push({ replica, what });
      return fetch(urls[replica], init);
    },
  });
  // Declares elicitation: a replica that rebuilt the session knows it only from the replayed initialize.
  const client = new Client({ name: 'replica-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'ada', approve: true } }));
  await client.connect(transport);
  return { client, transport, log, pin: (replica) => void (pinned = replica) };
}

/** A raw request in an existing session (status and parsed JSON-RPC error, if any). */
async function raw(url: string, sessionId: string, method = 'POST'): Promise<{ status: number; error?: { data?: { code?: string } } }> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId },
    ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }) } : {}),
  });
  const body = await response.text();
  return { status: response.status, ...(response.headers.get('content-type')?.includes('json') && body ? (JSON.parse(body) as object) : {}) };
}

const records = (state: StateStore, sessionId: string) => state.get(`mcp:session:${sessionId}`);

describe('serveHttp replicas sharing a state store', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });

  async function replicas(state: StateStore, other: StateStore, extra: { sessionIdleMs?: number; approvals?: ElicitationApprovals } = {}): Promise<Record<Name, HttpMcpHandle>> {
    const kernel = whoamiKernel();
    cleanup.push(() => kernel.close());
    const options = { kernel, mode: 'directory' as const, refreshIntervalMs: 0, ...extra };
    const a = await serveHttp({ ...options, state });
    cleanup.push(() => a.close());
    const b = await serveHttp({ ...options, state: other });
    cleanup.push(() => b.close());
    return { a, b };
  }

  async function connected(handles: Record<Name, HttpMcpHandle>, pinned?: Name): Promise<Balanced> {
    const balanced = await connectBalanced({ a: handles.a.url, b: handles.b.url }, pinned);
    cleanup.push(() => balanced.client.close());
    return balanced;
  }

  it('serves one session on both replicas, under one run session id, rebuilt from the stored initialize', async () => {
    const state = new MemoryStateStore({ replicaId: 'a' });
    const handles = await replicas(state, state.asReplica('b'));
    const { client, transport, log } = await connected(handles);

    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['ask', 'wait', 'whoami']);
    const first = text(await call(client, 'whoami'));
    const second = text(await call(client, 'whoami'));
    expect(second).toBe(first);
    expect(text(await call(client, 'whoami'))).toBe(first);

    // The elicitation goes out on the call's stream; its answer lands on either replica and reaches the one that asked.
    expect(text(await call(client, 'ask'))).toBe('hello ada');
    expect(text(await call(client, 'whoami'))).toBe(first); // one POST: the next ask is asked by the other replica
    expect(text(await call(client, 'ask'))).toBe('hello ada');
    const answers = log.flatMap((entry, i) => (entry.what === 'response' ? [[log[i - 1]!.replica, entry.replica]] : []));
    expect(answers).toEqual([
      ['a', 'b'],
      ['b', 'a'],
    ]);

    const served = (what: string) => new Set(log.filter((entry) => entry.what === what).map((entry) => entry.replica));
    expect(log[0]).toEqual({ replica: 'a', what: 'initialize' });
    expect(served('tools/call')).toEqual(new Set(['a', 'b']));
    expect(handles.b.sessions).toBe(1);
    const record = JSON.parse((await records(state, transport.sessionId!))!) as Record<string, unknown>;
    expect(record).toMatchObject({ runSessionId: first, replica: 'a', initialize: { clientInfo: { name: 'replica-test' } } });
  });

  it('aborts a call where it runs when its cancel lands on the other replica', async () => {
    const state = new MemoryStateStore({ replicaId: 'a' });
    const handles = await replicas(state, state.asReplica('b'));
    const { client, log } = await connected(handles);
    let started!: () => void;
    let aborted!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const stopped = new Promise<void>((resolve) => (aborted = resolve));
    waiting.push({ started, aborted });
    const controller = new AbortController();
    const pending = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal });
    await running;
    controller.abort();
    await expect(pending).rejects.toThrow();
    await stopped; // the test times out if the cancel never reached the replica running the call
    const at = (what: string) => log.find((entry) => entry.what === what)?.replica;
    const callAt = log.filter((entry) => entry.what === 'tools/call').at(-1)!.replica;
    expect(at('notifications/cancelled')).toBe(callAt === 'a' ? 'b' : 'a');
  });

  it('sends a request outside any call on the client stream another replica holds, and routes its answer back', async () => {
    const state = new MemoryStateStore({ replicaId: 'a' });
    // One process, one approvals registry: the replica that registered the run session last (b, which rebuilt it) asks.
    const approvals = elicitationApprovals();
    const handles = await replicas(state, state.asReplica('b'), { approvals });
    const { client, log } = await connected(handles);
    const runSessionId = text(await call(client, 'whoami'));
    expect(text(await call(client, 'whoami'))).toBe(runSessionId);
    expect(handles.b.sessions).toBe(1);
    expect(log.filter((entry) => entry.what === 'GET').map((entry) => entry.replica)).toEqual(['a']);
    const answer = await approvals.approve({ sessionId: runSessionId, toolId: 'plugin:test:whoami', args: {}, reason: 'test' }, { signal: AbortSignal.timeout(10_000) });
    expect(answer).toBe('allow');
  });

  it('ends the session on every replica when one gets the DELETE', async () => {
    const state = new MemoryStateStore({ replicaId: 'a' });
    const handles = await replicas(state, state.asReplica('b'));
    const balanced = await connected(handles);
    await call(balanced.client, 'whoami');
    await call(balanced.client, 'whoami');
    const sessionId = balanced.transport.sessionId!;
    expect([handles.a.sessions, handles.b.sessions]).toEqual([1, 1]);

    balanced.pin('b');
    await balanced.transport.terminateSession();
    expect(await records(state, sessionId)).toBeUndefined();
    expect(handles.b.sessions).toBe(0);
    // A still held a copy: its record is gone, so it closes it and answers 404.
    expect((await raw(handles.a.url, sessionId)).status).toBe(404);
    expect(handles.a.sessions).toBe(0);
    expect((await raw(handles.b.url, sessionId, 'DELETE')).status).toBe(404);
  });

  it('answers 404 for a session neither this replica nor the store knows', async () => {
    const state = new MemoryStateStore({ replicaId: 'a' });
    const handles = await replicas(state, state.asReplica('b'));
    expect((await raw(handles.b.url, '2f3c0a62-unknown')).status).toBe(404);
    expect((await raw(handles.b.url, 'x'.repeat(129))).status).toBe(404);
    expect(handles.b.sessions).toBe(0);
  });

  it('closes a held copy whose record expired (idle TTL) and answers 404', async () => {
    let now = Date.now();
    const state = new MemoryStateStore({ replicaId: 'a', now: () => now });
    const handles = await replicas(state, state.asReplica('b'), { sessionIdleMs: 60_000 });
    const balanced = await connected(handles, 'a');
    await call(balanced.client, 'whoami');
    const sessionId = balanced.transport.sessionId!;
    now += 30_000;
    await call(balanced.client, 'whoami'); // a request renews the record's TTL
    now += 45_000;
    expect(await records(state, sessionId)).toBeDefined();
    now += 20_000;
    expect((await raw(handles.a.url, sessionId)).status).toBe(404);
    expect(handles.a.sessions).toBe(0);
  });
});

const haveRedis = redisServerAvailable();
if (!haveRedis) console.warn('skipping the Redis outage test of serveHttp replicas: redis-server is not installed (apt-get install -y redis-server)');

describe.runIf(haveRedis)('serveHttp replicas during a Redis outage', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });

  it('keeps sessions held locally working, answers the others 503 STATE_UNAVAILABLE, and recovers', async () => {
    const redis: RedisServerHandle = await startRedisServer();
    cleanup.push(() => redis.stop());
    const keyPrefix = `mcp-outage-${process.pid}:`;
    const [stateA, stateB] = await Promise.all(['a', 'b'].map((replicaId) => connectRedisState({ url: redis.url, keyPrefix, replicaId, commandTimeoutMs: 500 })));
    cleanup.push(() => stateA!.close(), () => stateB!.close());
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
    expect(elsewhere.error?.data?.code).toBe(ErrorCode.STATE_UNAVAILABLE);
    const fresh = await fetch(b.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    expect(fresh.status).toBe(503);
    expect(b.sessions).toBe(0);

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
