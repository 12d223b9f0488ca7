/**
 * `serve mcp --http` without keys against a web page and DNS rebinding, byte for byte over a raw socket: Host and
 * Origin spellings, an absolute-form target naming another authority, and a JSON-RPC initialize sent the ways a page
 * may send it without a preflight. Each is refused before a session opens; the loopback spellings still initialize.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type KernelPlugin } from '@tool-search/kernel';
import { serveHttp, type HttpMcpHandle } from '../src/index.js';

let kernel: Kernel;
let http: HttpMcpHandle;
let port: number;

beforeAll(async () => {
  // The exposure is beside the point: a `tools` mode that offers nothing is enough to initialize.
  const mode: KernelPlugin = {
    name: 'empty-tools-mode',
    apply: ({ hooks }) => hooks.materialize.for('tools').tap((draft) => draft),
  };
  kernel = createKernel({ plugins: [mode] });
  http = await serveHttp({ kernel, mode: 'tools', refreshIntervalMs: 0 });
  port = Number(new URL(http.url).port);
});
afterAll(async () => {
  await http?.close();
  await kernel?.close();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
});

/** Raw request; resolves with the final status code (0: no answer before the connection closed). */
function post(headers: string[], target = '/mcp', body = INITIALIZE): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      const [, rest = ''] = text.split('\r\n\r\n');
      if (length !== undefined && rest.length >= Number(length)) socket.end();
      if (/content-type: text\/event-stream/i.test(text) && /\n\n/.test(rest)) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    const head = [
      `POST ${target} HTTP/1.1`,
      ...headers,
      `content-length: ${Buffer.byteLength(body)}`,
      'connection: close',
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
}

const ACCEPT = 'accept: application/json, text/event-stream';
const JSON_TYPE = 'content-type: application/json';

describe('serve mcp --http refuses a web page', () => {
  for (const host of [
    'localhost.',
    'rebind.attacker.example',
    '127.0.0.1.nip.io',
    '[::ffff:127.0.0.1]',
    'user@127.0.0.1',
    '',
  ]) {
    it(`Host ${JSON.stringify(host)}: 403, no session`, async () => {
      const before = http.sessions;
      expect((await post([`host: ${host}`, ACCEPT, JSON_TYPE])).status).toBe(403);
      expect(http.sessions).toBe(before);
    });
  }

  for (const origin of [
    'null',
    'file://',
    'http://localhost.attacker.example',
    'https://attacker.example, http://127.0.0.1',
  ]) {
    it(`Origin ${JSON.stringify(origin)}: 403, no session`, async () => {
      const before = http.sessions;
      expect((await post([`host: 127.0.0.1:${port}`, `origin: ${origin}`, ACCEPT, JSON_TYPE])).status).toBe(403);
      expect(http.sessions).toBe(before);
    });
  }

  it('an absolute-form target naming another authority: 403 (found by this red team), no session', async () => {
    const before = http.sessions;
    const answer = await post([`host: 127.0.0.1:${port}`, ACCEPT, JSON_TYPE], 'http://rebind.attacker.example/mcp');
    expect(answer.status).toBe(403);
    expect(http.sessions).toBe(before);
  });

  it('an initialize a loopback page may send without a preflight (text/plain, a form type) opens no session', async () => {
    const before = http.sessions;
    for (const type of ['text/plain', 'text/plain; application/json', 'application/x-www-form-urlencoded']) {
      const answer = await post([
        `host: 127.0.0.1:${port}`,
        'origin: http://127.0.0.1:5173',
        ACCEPT,
        `content-type: ${type}`,
      ]);
      expect(answer.status, type).toBeGreaterThanOrEqual(400);
    }
    expect(http.sessions).toBe(before);
  });

  it('the loopback spellings initialize (LOCALHOST, [::1], 127.1, an absolute-form loopback target)', async () => {
    for (const [host, target] of [
      [`LOCALHOST:${port}`, '/mcp'],
      [`[::1]:${port}`, '/mcp'],
      [`127.1:${port}`, '/mcp'],
      [`127.0.0.1:${port}`, `http://127.0.0.1:${port}/mcp`],
    ] as const) {
      const answer = await post([`host: ${host}`, ACCEPT, JSON_TYPE], target);
      expect(answer.status, `${host} ${target} ${answer.text.slice(0, 600)}`).toBe(200);
    }
  });
});
