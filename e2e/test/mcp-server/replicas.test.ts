/**
 * Two `serveHttp` replicas over one state store (the in-process store's two
 * replica views): one MCP session, the official SDK client, requests
 * alternating between the replicas.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchKernel } from '@tool-search/preset';
import { MemoryStateStore, type StateStore } from '@tool-search/state';
import {
  elicitationApprovals,
  serveHttp,
  type ElicitationApprovals,
  type HttpMcpHandle,
} from '@tool-search/mcp-server';
import { CONFORMANCE_FIXTURE } from './conformance-kit.js';
import { call, text } from './helpers.js';
import { connectBalanced, raw, records, waiting, whoamiKernel, type Balanced, type Name } from './replicas-kit.js';

describe('serveHttp replicas sharing a state store', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });

  async function replicas(
    state: StateStore,
    other: StateStore,
    extra: { sessionIdleMs?: number; approvals?: ElicitationApprovals } = {},
  ): Promise<Record<Name, HttpMcpHandle>> {
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

  it('answers a balancer health check at /health with the replica id, its sessions and whether its store answers', async () => {
    const state = new MemoryStateStore({ replicaId: 'a' });
    const handles = await replicas(state, state.asReplica('b'));
    await connected(handles, 'a');
    const health = async (handle: HttpMcpHandle) => {
      const res = await fetch(new URL('/health', handle.url));
      return { status: res.status, body: await res.json() };
    };
    expect(await health(handles.a)).toEqual({
      status: 200,
      body: { replica: 'a', sessions: 1, state: { kind: 'memory', ok: true } },
    });
    expect(await health(handles.b)).toEqual({
      status: 200,
      body: { replica: 'b', sessions: 0, state: { kind: 'memory', ok: true } },
    });
    // A store that does not answer (Redis down): the balancer takes this replica out.
    const broken = Object.assign(state.asReplica('c'), { ping: async () => false });
    const kernel = whoamiKernel();
    cleanup.push(() => kernel.close());
    const unhealthy = await serveHttp({ kernel, mode: 'directory', refreshIntervalMs: 0, state: broken });
    cleanup.push(() => unhealthy.close());
    expect(await health(unhealthy)).toMatchObject({ status: 503, body: { replica: 'c', state: { ok: false } } });
  });

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
    const answers = log.flatMap((entry, i) =>
      entry.what === 'response' ? [[log[i - 1]!.replica, entry.replica]] : [],
    );
    expect(answers).toEqual([
      ['a', 'b'],
      ['b', 'a'],
    ]);

    const served = (what: string) => new Set(log.filter((entry) => entry.what === what).map((entry) => entry.replica));
    expect(log[0]).toEqual({ replica: 'a', what: 'initialize' });
    expect(served('tools/call')).toEqual(new Set(['a', 'b']));
    expect(handles.b.sessions).toBe(1);
    const record = JSON.parse((await records(state, transport.sessionId!))!) as Record<string, unknown>;
    expect(record).toMatchObject({
      runSessionId: first,
      replica: 'a',
      initialize: { clientInfo: { name: 'replica-test' } },
    });
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
    const answer = await approvals.approve(
      { sessionId: runSessionId, toolId: 'plugin:test:whoami', args: {}, reason: 'test' },
      { signal: AbortSignal.timeout(10_000) },
    );
    expect(answer).toBe('allow');
  });

  it('applies a logging/setLevel sent to one replica on the others, held copies and rebuilt ones alike', async () => {
    const { kernel, mcpDownstream } = await createToolSearchKernel({
      mcpServers: { conf: { command: process.execPath, args: [CONFORMANCE_FIXTURE] } },
    });
    cleanup.push(() => kernel.close());
    const state = new MemoryStateStore({ replicaId: 'a' });
    const options = {
      kernel,
      mode: 'directory' as const,
      refreshIntervalMs: 0,
      ...(mcpDownstream ? { downstream: mcpDownstream } : {}),
    };
    const handles = {
      a: await serveHttp({ ...options, state }),
      b: await serveHttp({ ...options, state: state.asReplica('b') }),
    };
    cleanup.push(
      () => handles.a.close(),
      () => handles.b.close(),
    );
    const logged = async (session: Balanced, on: Name) => {
      session.pin(on);
      session.logs.length = 0;
      await session.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      return [...session.logs];
    };

    const held = await connected(handles); // initialize on a, initialized on b: both hold it
    expect(await logged(held, 'b')).toContain('Tool execution started');
    held.pin('a');
    await held.client.setLoggingLevel('error');
    expect([handles.a.sessions, handles.b.sessions]).toEqual([1, 1]);
    expect(await logged(held, 'b')).toEqual([]);

    const later = await connected(handles, 'a'); // only a holds it when the level is set
    await later.client.setLoggingLevel('error');
    expect(await logged(later, 'b')).toEqual([]);
    expect(handles.b.sessions).toBe(2);
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
    // A record in another shape (another version, anyone with store access) is no session either.
    await state.set('mcp:session:not-a-record', JSON.stringify({ runSessionId: 'r', initialize: { clientInfo: {} } }), {
      ttlMs: 60_000,
    });
    expect((await raw(handles.b.url, 'not-a-record')).status).toBe(404);
    expect(handles.b.sessions).toBe(0);
  });

  it('keeps no record of an initialize the transport refused', async () => {
    const state = new MemoryStateStore({ replicaId: 'a' });
    const handles = await replicas(state, state.asReplica('b'));
    const refused = await fetch(handles.a.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' }, // no text/event-stream: 406
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(refused.status).toBe(406);
    expect([handles.a.sessions, state.size]).toEqual([0, 0]);
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
