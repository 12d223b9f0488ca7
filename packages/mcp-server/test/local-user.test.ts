/**
 * `serve mcp --http` without a token serves its own user only: another local user (a client run as uid 65534) gets
 * 403 with the code AUTH_OTHER_USER before any MCP message is read; with a token, the token decides. Needs root and
 * setpriv to run the client as another user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type KernelPlugin } from '@tool-search/kernel';
import { canRunAsOtherUser, fetchAsUser, OTHER_UID } from '@tool-search/testing';
import { serveHttp, type HttpMcpHandle } from '../src/index.js';

const CAN_DROP = canRunAsOtherUser();
if (!CAN_DROP)
  console.warn('skipping the other-local-user serve mcp tests: they need root, /proc/net/tcp (Linux) and setpriv');

const TOKEN = 'local-user-token-0123456789';
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'other-user', version: '1' } },
});
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let kernel: Kernel;
let open: HttpMcpHandle;
let guarded: HttpMcpHandle;
beforeAll(async () => {
  // The exposure is beside the point: a `tools` mode that offers nothing is enough to initialize.
  const mode: KernelPlugin = {
    name: 'empty-tools-mode',
    apply: ({ hooks }) => hooks.materialize.for('tools').tap((draft) => draft),
  };
  kernel = createKernel({ plugins: [mode] });
  open = await serveHttp({ kernel, mode: 'tools', refreshIntervalMs: 0 });
  guarded = await serveHttp({ kernel, mode: 'tools', refreshIntervalMs: 0, token: TOKEN });
});
afterAll(async () => {
  await open?.close();
  await guarded?.close();
  await kernel?.close();
});

describe.skipIf(!CAN_DROP)('serve mcp --http and another local user', () => {
  it('without a token: uid 65534 is refused (403 AUTH_OTHER_USER), its own user is served', async () => {
    const other = await fetchAsUser(OTHER_UID, open.url, { method: 'POST', headers, body: INITIALIZE });
    expect(other.status).toBe(403);
    expect(other.json).toMatchObject({ error: { data: { code: 'AUTH_OTHER_USER' } } });
    const own = await fetchAsUser(undefined, open.url, { method: 'POST', headers, body: INITIALIZE });
    expect(own, JSON.stringify(own.json)).toMatchObject({ status: 200 });
  });

  it('with a token: uid 65534 holding it is served', async () => {
    const withToken = { ...headers, authorization: `Bearer ${TOKEN}` };
    const other = await fetchAsUser(OTHER_UID, guarded.url, { method: 'POST', headers: withToken, body: INITIALIZE });
    expect(other.status).toBe(200);
  });
});
