/**
 * Per-resource subscriptions for 2026-07-28 clients: a `subscriptions/listen`
 * stream naming namespaced resource URIs subscribes to them downstream (a
 * real server whose notes change when its `edit` tool runs) and hears
 * `notifications/resources/updated` for those URIs only; a URI of a server
 * the caller's policy hides is not honored (the acknowledgement says so) and
 * that server is never asked; the downstream subscription ends with the stream.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';

const NOTES_FIXTURE = fileURLToPath(new URL('./fixtures/notes-server.mjs', import.meta.url));
const MODERN = '2026-07-28';
const A = 'tool-search://notes/note://a';
const B = 'tool-search://notes/note://b';
const SECRET = 'tool-search://secret/note://a';

let dir: string;
let kernel: Kernel;
let http: HttpMcpHandle;
let client: Client;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modern-subscriptions-'));
  const preset = await createToolSearchKernel({
    mcpServers: {
      notes: { command: process.execPath, args: [NOTES_FIXTURE, join(dir, 'notes.json')] },
      secret: { command: process.execPath, args: [NOTES_FIXTURE, join(dir, 'secret.json')] },
    },
    tools: { deny: ['mcp:secret:*'] },
  });
  kernel = preset.kernel;
  http = await serveHttp({
    kernel,
    mode: 'directory',
    refreshIntervalMs: 0,
    ...(preset.mcpDownstream ? { downstream: preset.mcpDownstream } : {}),
  });
  client = new Client({ name: 'listener', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  // On a loaded machine a server may miss the first listing: a call to it refreshes the run until it is there.
  for (
    let tries = 0;
    (await client.callTool({ name: 'tool_describe', arguments: { id: 'mcp:notes:edit' } })).isError;
    tries++
  ) {
    if (tries > 100) throw new Error('the notes server never joined the catalog');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 60_000);
afterAll(async () => {
  await client?.close().catch(() => undefined);
  await http?.close();
  await kernel?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
const call = (id: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name: 'tool_call', arguments: { id, args } });

/** An open `subscriptions/listen` stream: its messages in order, as they arrive. */
interface Listening {
  next(): Promise<Record<string, any>>;
  close(): void;
}

async function listen(resourceSubscriptions: string[]): Promise<Listening> {
  const abort = new AbortController();
  const response = await fetch(http.url, {
    method: 'POST',
    signal: abort.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'listen-1',
      method: 'subscriptions/listen',
      params: {
        notifications: { resourceSubscriptions },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream'))
    throw new Error(`listen answered ${response.status}: ${await response.text()}`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const queue: Record<string, any>[] = [];
  return {
    async next() {
      while (!queue.length) {
        const { done, value } = await reader.read();
        if (done) throw new Error('the listen stream ended');
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          if (data) queue.push(JSON.parse(data.slice(6)));
        }
      }
      return queue.shift()!;
    },
    close: () => abort.abort(),
  };
}

/**
 * A listen stream whose acknowledgement honors `expected`: on a loaded machine a server can be missing from the
 * run's catalog for a moment (then its URIs are not honored), so a stream that does not is closed and opened again.
 */
async function listenHonoring(uris: string[], expected: string[]): Promise<Listening> {
  for (let tries = 0; ; tries++) {
    const stream = await listen(uris);
    const ack = await stream.next();
    expect(ack.method).toBe('notifications/subscriptions/acknowledged');
    const honored = ack.params.notifications.resourceSubscriptions ?? [];
    if (JSON.stringify(honored) === JSON.stringify(expected)) return stream;
    stream.close();
    if (tries > 50) throw new Error(`the acknowledgement kept honoring ${JSON.stringify(honored)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What a server's notes are subscribed to now (its file). */
const subscribedOn = async (server: 'notes' | 'secret') =>
  JSON.parse(await readFile(join(dir, `${server}.json`), 'utf8')) as string[];

/** Polls the notes server until its subscriptions are `expected`. */
async function subscriptionsBecome(expected: string[]): Promise<void> {
  for (let tries = 0; ; tries++) {
    const now = await subscribedOn('notes');
    if (JSON.stringify(now) === JSON.stringify(expected)) return;
    if (tries > 200) throw new Error(`subscriptions stayed ${JSON.stringify(now)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('subscriptions/listen with resource URIs (2026-07-28)', () => {
  it('hears notifications/resources/updated for the subscribed resource only, and unsubscribes downstream when the stream ends', async () => {
    // Hidden by policy (secret) or not namespaced: not honored.
    const stream = await listenHonoring([A, SECRET, 'note://a'], [A]);
    await subscriptionsBecome(['note://a']);

    expect(text(await call('mcp:notes:edit', { note: 'b', text: 'unwatched' }))).toBe('edited note://b');
    expect(text(await call('mcp:notes:edit', { note: 'a', text: 'watched' }))).toBe('edited note://a');
    const update = await stream.next();
    // The first update is a's: b's edit (sent first) reached no one.
    expect(update.method).toBe('notifications/resources/updated');
    expect(update.params.uri).toBe(A);
    expect((await client.readResource({ uri: A })).contents[0]).toMatchObject({ text: 'watched' });

    stream.close();
    await subscriptionsBecome([]);
  });

  it('never subscribes to a server the policy hides', async () => {
    const stream = await listenHonoring([SECRET, B], [B]);
    await subscriptionsBecome(['note://b']);
    // B was subscribed after SECRET was considered: had SECRET been asked, its file would say so by now.
    expect(await subscribedOn('secret')).toEqual([]);
    stream.close();
    await subscriptionsBecome([]);
  });
});
