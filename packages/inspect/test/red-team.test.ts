/**
 * The keyless inspect page against a web page and DNS rebinding on every route (the API, its event stream, the
 * page's assets, unknown and traversal paths), byte for byte over a raw socket: foreign Host spellings, foreign
 * Origins, and an absolute-form target naming another authority. All are 403 `AUTH_NOT_LOOPBACK` before any route
 * runs; a write method from a loopback page is 405. A session log beside it is never read for a refused request.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '@tool-search/kernel';
import { startInspectServer, type InspectServer } from '../src/index.js';

let kernel: Kernel;
let server: InspectServer;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-inspect-rt-'));
  writeFileSync(
    join(dir, 'private.jsonl'),
    `${JSON.stringify({ ts: 1, type: 'run-start', runId: 'r', sessionId: 'private' })}\n`,
  );
  kernel = createKernel();
  server = await startInspectServer({ kernel, config: {}, sessions: { dir }, countTokens: false });
});
afterAll(async () => {
  await server?.close();
  await kernel?.close();
});

/** One raw request (the request line and headers as given); resolves with the status code and the text. */
function send(line: string, headers: string[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      // The event stream never ends by itself: its first event (or any complete answer) is enough.
      if (/\r\n\r\n/.test(text) && (/event: hello/.test(text) || /\r\n\r\n[\s\S]*\}$/.test(text))) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.write(`${[line, ...headers, 'connection: close'].join('\r\n')}\r\n\r\n`);
  });
}

const ROUTES = [
  '/',
  '/index.html',
  '/api/meta',
  '/api/catalog',
  '/api/search?q=x',
  '/api/exposure',
  '/api/sessions',
  '/api/session?id=private',
  '/api/live',
  '/api/events',
  '/api/nothing',
  '/..%2f..%2fetc%2fpasswd',
  '/no-such-asset.js',
];

describe('every route refuses a web page', () => {
  for (const path of ROUTES) {
    it(`GET ${path}: foreign Host, foreign Origin and an absolute-form target are 403; loopback is served`, async () => {
      const local = `host: 127.0.0.1:${server.port}`;
      const refusals = [
        [`GET ${path} HTTP/1.1`, ['host: rebind.attacker.example']],
        [`GET ${path} HTTP/1.1`, ['host: localhost.']],
        [`GET ${path} HTTP/1.1`, ['host: [::ffff:127.0.0.1]']],
        [`GET ${path} HTTP/1.1`, [local, 'origin: null']],
        [`GET ${path} HTTP/1.1`, [local, 'origin: http://localhost.attacker.example']],
        [`GET http://rebind.attacker.example${path} HTTP/1.1`, [local]],
      ] as const;
      for (const [line, headers] of refusals) {
        const answer = await send(line, [...headers]);
        expect(answer.status, `${line} ${headers.join(' ')}`).toBe(403);
        expect(answer.text).toContain('AUTH_NOT_LOOPBACK');
        expect(answer.text).not.toContain('"private"');
      }
      expect((await send(`GET ${path} HTTP/1.1`, [local])).status).not.toBe(403);
    });
  }

  it('a write method from a loopback page is 405 on every route', async () => {
    for (const path of ROUTES) {
      const answer = await send(`POST ${path} HTTP/1.1`, [
        `host: 127.0.0.1:${server.port}`,
        'origin: http://127.0.0.1:5173',
        'content-type: text/plain',
        'content-length: 0',
      ]);
      expect(answer.status, path).toBe(405);
    }
  });
});
