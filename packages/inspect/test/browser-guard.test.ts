/**
 * Issue #40 on the inspect server, over real HTTP. Item 3: the loopback page refuses a web page's request (a foreign
 * Host: DNS rebinding; a foreign Origin: cross-site), 403 `AUTH_NOT_LOOPBACK`, while its own same-origin fetches keep
 * working (page.test.ts drives those in Chromium). Item 10: a FIFO, a folder or a symlink named like a log in the
 * sessions folder is skipped unopened, so requests keep answering (opening a FIFO waited for a writer and held one of
 * libuv's four file threads: after a few requests every file operation, the page's assets too, hung).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '@tool-search/kernel';
import { startInspectServer, type InspectServer } from '../src/index.js';

let kernel: Kernel;
let server: InspectServer;
let dir: string;
const fifos: string[] = [];

const entry = (sessionId: string) => `${JSON.stringify({ ts: 1, type: 'run-start', runId: 'r1', sessionId })}\n`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tool-search-inspect-special-'));
  writeFileSync(join(dir, 'good.jsonl'), entry('good'));
  const outside = join(mkdtempSync(join(tmpdir(), 'tool-search-inspect-outside-')), 'secret.jsonl');
  writeFileSync(outside, entry('secret'));
  symlinkSync(outside, join(dir, 'link.jsonl'));
  mkdirSync(join(dir, 'folder.jsonl'));
  for (const name of ['stuck', 'stuck2']) {
    fifos.push(join(dir, `${name}.jsonl`));
    execFileSync('mkfifo', [fifos.at(-1)!]);
  }
  kernel = createKernel();
  server = await startInspectServer({ kernel, config: {}, sessions: { dir }, countTokens: false });
});

afterAll(async () => {
  // Old code left reads waiting on the FIFOs: a writer that opens and closes gives them their end of file.
  for (const fifo of fifos) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: no reader waits on it, nothing to release
    }
  }
  await server?.close();
  await kernel?.close();
});

interface Answer {
  status: number;
  json: any;
}

/** GET with exactly these headers (fetch() would not let us set Host). */
function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        headers,
        setHost: !('host' in headers),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: text.startsWith('{') ? JSON.parse(text) : text }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the inspect server refuses a web page on another site', () => {
  it('refuses a foreign Host (DNS rebinding): 403 AUTH_NOT_LOOPBACK', async () => {
    for (const host of [`rebind.attacker.example:${server.port}`, `127.0.0.1.attacker.example:${server.port}`]) {
      const res = await get('/api/meta', { host });
      expect(res.status, host).toBe(403);
      expect(res.json.error.code).toBe('AUTH_NOT_LOOPBACK');
    }
  });

  it('refuses a foreign or null Origin, on the API and the page', async () => {
    for (const origin of ['https://attacker.example', 'null'])
      for (const path of ['/api/sessions', '/api/catalog', '/']) {
        const res = await get(path, { origin });
        expect(res.status, `${origin} ${path}`).toBe(403);
        expect(res.json.error.code).toBe('AUTH_NOT_LOOPBACK');
      }
  });

  it("serves its own page's same-origin requests (Origin: its own loopback origin) and clients without Origin", async () => {
    const own = new URL(server.url).origin;
    expect((await get('/api/meta', { origin: own })).status).toBe(200);
    expect((await get('/api/meta', { host: `localhost:${server.port}` })).status).toBe(200);
    expect((await get('/api/meta')).status).toBe(200);
  });
});

describe('special files in the sessions folder', () => {
  it('lists only the regular log: FIFOs, a folder and a symlink are skipped unopened', async () => {
    const res = await get('/api/sessions');
    expect(res.status).toBe(200);
    expect(res.json.sessions.map((s: { id: string }) => s.id)).toEqual(['good']);
  });

  it('keeps answering after many requests that would open the FIFOs', async () => {
    const lists = await Promise.all(Array.from({ length: 12 }, () => get('/api/sessions')));
    expect(lists.map((r) => r.status)).toEqual(Array(12).fill(200));
    const opened = await Promise.all(['stuck', 'stuck2', 'link', 'folder'].map((id) => get(`/api/session?id=${id}`)));
    expect(opened.map((r) => [r.status, r.json.error?.code])).toEqual(Array(4).fill([404, 'INSPECT_NOT_FOUND']));
    // File operations still answer: the page's own assets and the regular log.
    expect((await get('/')).status).toBe(200);
    const good = await get('/api/session?id=good');
    expect(good.status).toBe(200);
    expect(good.json.entries).toHaveLength(1);
  });
});
