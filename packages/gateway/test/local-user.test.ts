/**
 * Loopback keeps other machines out, not other users of this one: without keys the gateway serves only its own user
 * (and root). A client run as uid 65534 (setpriv) is refused with 403 AUTH_OTHER_USER and no tool runs; with a key it
 * is served like anyone holding that key. Needs root (to drop to another uid) and /proc/net/tcp (Linux).
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeys, hashApiKey, loopbackPeerUid } from '@tool-search/auth';
import type { KernelPlugin } from '@tool-search/kernel';
import { canRunAsOtherUser, fetchAsUser, OTHER_UID } from '@tool-search/testing';
import { harness, type Harness } from './helpers.js';

const CAN_DROP = canRunAsOtherUser();
if (!CAN_DROP)
  console.warn(
    'skipping the other-local-user gateway tests: they need root, /proc/net/tcp (Linux) and setpriv (util-linux) to run a client as uid 65534',
  );

const WRITE = 'tool search qa check target=write args={"path":"pwned.txt","content":"x"}';
const CHAT = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: WRITE }] });
const KEY = 'local-user-test-key-0123456789';

let h: Harness;
let port: number;
let keyedPort: number;
const ran: string[] = [];
const recorder: KernelPlugin = {
  name: 'test-recorder',
  apply: ({ hooks }) => hooks.afterToolCall.tap((call) => void ran.push(call.tool.name)),
};

beforeAll(async () => {
  h = await harness();
  port = (await h.gateway('direct', { plugins: [recorder] })).server.port;
  const auth = createApiKeys({ keys: [{ name: 'other', hash: hashApiKey(KEY), agents: ['*'] }] });
  keyedPort = (await h.gateway('direct', { plugins: [recorder], auth })).server.port;
});
afterAll(() => h?.close());

/** POSTs the chat request from a process run as `uid` (or this one's user): the status and the error code. */
async function postAs(uid: number | undefined, to: number, key?: string): Promise<{ status: number; code?: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const { status, json } = await fetchAsUser(uid, `http://127.0.0.1:${to}/v1/chat/completions`, {
    method: 'POST',
    headers,
    body: CHAT,
  });
  const code = (json as { error?: { code?: string } } | null)?.error?.code;
  return { status, ...(code ? { code } : {}) };
}

describe.skipIf(!CAN_DROP)('a keyless gateway and another local user', () => {
  it('refuses uid 65534 with 403 AUTH_OTHER_USER, and no tool runs', async () => {
    const before = ran.length;
    expect(await postAs(OTHER_UID, port)).toEqual({ status: 403, code: 'AUTH_OTHER_USER' });
    expect(ran.slice(before)).toEqual([]);
  });

  it('serves its own user', async () => {
    const before = ran.length;
    expect((await postAs(undefined, port)).status).toBe(200);
    expect(ran.slice(before)).toContain('write');
  });

  it('with keys, the key decides: uid 65534 holding one is served, without one it is AUTH_REQUIRED', async () => {
    expect((await postAs(OTHER_UID, keyedPort, KEY)).status).toBe(200);
    expect(await postAs(OTHER_UID, keyedPort)).toMatchObject({ status: 401, code: 'AUTH_REQUIRED' });
  });
});

describe.skipIf(!existsSync('/proc/net/tcp'))('loopbackPeerUid', () => {
  it('finds the owner of the client end of a connection this process accepted', async () => {
    const { createServer, connect } = await import('node:net');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const accepted = new Promise<import('node:net').Socket>((resolve) => server.once('connection', resolve));
    const client = connect((server.address() as { port: number }).port, '127.0.0.1');
    const socket = await accepted;
    expect(await loopbackPeerUid(socket)).toBe(process.getuid?.());
    client.destroy();
    socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
});
