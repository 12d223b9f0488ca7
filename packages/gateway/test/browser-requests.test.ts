/**
 * A web page open on the same machine must not drive the keyless loopback gateway (issue #40, item 3): real HTTP
 * requests as a browser would send them. DNS rebinding (a foreign Host), cross-site simple requests (an Origin of
 * another site, text/plain or form bodies, which need no preflight) and a foreign Host reading the approvals are
 * refused with coded errors in the API's own shape, and the `write` tool never runs; the official clients (JSON, no
 * Origin) and keyed deployments behind another name keep working.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { createApiKeys, hashApiKey } from '@tool-search/auth';
import type { KernelPlugin } from '@tool-search/kernel';
import { harness, type Harness } from './helpers.js';

const WRITE = 'tool search qa check target=write args={"path":"pwned.txt","content":"x"}';
const CHAT = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: WRITE }] });
const KEY = 'browser-test-key-0123456789';

let h: Harness;
let port: number;
let keyedPort: number;
const ran: string[] = [];
let approvalsRead = 0;

/** Every tool that ran, by name. */
const recorder: KernelPlugin = {
  name: 'test-recorder',
  apply: ({ hooks }) => hooks.afterToolCall.tap((call) => void ran.push(call.tool.name)),
};

beforeAll(async () => {
  h = await harness();
  const approvals = async (req: { method?: string; url?: string }, res: import('node:http').ServerResponse) => {
    if (req.method !== 'GET' || req.url !== '/v1/approvals') return false;
    approvalsRead++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"approvals":[{"id":"secret"}]}');
    return true;
  };
  port = (await h.gateway('direct', { plugins: [recorder], routes: [approvals] })).server.port;
  const auth = createApiKeys({ keys: [{ name: 'proxy', hash: hashApiKey(KEY), agents: ['*'] }] });
  keyedPort = (await h.gateway('direct', { plugins: [recorder], auth })).server.port;
});
afterAll(() => h.close());

interface Answer {
  status: number;
  headers: import('node:http').IncomingHttpHeaders;
  json: any;
}

/** One raw HTTP request with exactly these headers (a browser's Host and Origin, which fetch() would not let us set). */
function send(
  path: string,
  headers: Record<string, string>,
  body?: string,
  method = body === undefined ? 'GET' : 'POST',
  to = port,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: to, path, method, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text ? JSON.parse(text) : undefined }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const local = () => ({ host: `127.0.0.1:${port}` });

describe('a web page cannot drive the keyless gateway', () => {
  it('the official clients still run the write tool (JSON, no Origin)', async () => {
    const before = ran.length;
    const openai = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'none', maxRetries: 0 });
    await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: WRITE }] });
    const claude = new Anthropic({ baseURL: `http://localhost:${port}`, apiKey: 'none', maxRetries: 0 });
    await claude.messages.create({ model: 'm', max_tokens: 64, messages: [{ role: 'user', content: WRITE }] });
    expect(ran.slice(before)).toEqual(['write', 'write']);
  });

  it('refuses a DNS-rebinding request (foreign Host): 403 AUTH_NOT_LOOPBACK, nothing runs', async () => {
    const before = { ran: ran.length, upstream: h.received('openai').length };
    const json = { 'content-type': 'application/json' };
    for (const host of [`rebind.attacker.example:${port}`, `127.0.0.1.attacker.example:${port}`, '']) {
      const res = await send('/v1/chat/completions', { ...json, host }, CHAT);
      expect(res.status, host).toBe(403);
      expect(res.json.error).toMatchObject({ code: 'AUTH_NOT_LOOPBACK', type: 'permission_error' });
      expect(res.json.error.details.header).toBe('host');
    }
    expect({ ran: ran.length, upstream: h.received('openai').length }).toEqual(before);
  });

  it('answers in the Anthropic shape on /v1/messages', async () => {
    const res = await send(
      '/v1/messages',
      { host: 'rebind.attacker.example', 'content-type': 'application/json' },
      '{}',
    );
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ type: 'error', error: { type: 'permission_error', code: 'AUTH_NOT_LOOPBACK' } });
  });

  it('refuses a cross-site simple request (Origin of another site, text/plain JSON): 403, nothing runs', async () => {
    const before = ran.length;
    for (const origin of ['https://attacker.example', 'null']) {
      const res = await send(
        '/v1/chat/completions',
        { ...local(), origin, 'content-type': 'text/plain;charset=UTF-8' },
        CHAT,
      );
      expect(res.status, origin).toBe(403);
      expect(res.json.error).toMatchObject({ code: 'AUTH_NOT_LOOPBACK', details: { header: 'origin', value: origin } });
    }
    expect(ran.length).toBe(before);
  });

  it('refuses JSON sent as text/plain, a form or multipart (no preflight needed): 415 REQUEST_NOT_JSON', async () => {
    const before = { ran: ran.length, upstream: h.received('openai').length };
    const types = ['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'];
    // From a page on another loopback port (a loopback Origin passes the first rule), and from no page at all.
    for (const origin of [{ origin: 'http://127.0.0.1:5173' }, {}] as Record<string, string>[]) {
      for (const type of [...types, undefined]) {
        const res = await send(
          '/v1/chat/completions',
          { ...local(), ...origin, ...(type ? { 'content-type': type } : {}) },
          CHAT,
        );
        expect(res.status, String(type)).toBe(415);
        expect(res.json.error).toMatchObject({ code: 'REQUEST_NOT_JSON', type: 'invalid_request_error' });
      }
    }
    const form = await send(
      '/v1/responses',
      { ...local(), 'content-type': 'application/x-www-form-urlencoded' },
      `${CHAT}=`,
    );
    expect(form.status).toBe(415);
    expect({ ran: ran.length, upstream: h.received('openai').length }).toEqual(before);
  });

  it('refuses a foreign Host reading GET /v1/approvals; a loopback Host reads it', async () => {
    const res = await send('/v1/approvals', { host: `rebind.attacker.example:${port}` });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('AUTH_NOT_LOOPBACK');
    expect(approvalsRead).toBe(0);
    expect((await send('/v1/approvals', { host: `localhost:${port}` })).status).toBe(200);
    expect(approvalsRead).toBe(1);
  });

  it('grants no cross-origin access on a preflight (OPTIONS)', async () => {
    const preflight = {
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    };
    const foreign = await send(
      '/v1/chat/completions',
      { ...local(), ...preflight, origin: 'https://attacker.example' },
      undefined,
      'OPTIONS',
    );
    expect(foreign.status).toBe(403);
    const otherPort = await send(
      '/v1/chat/completions',
      { ...local(), ...preflight, origin: 'http://localhost:5173' },
      undefined,
      'OPTIONS',
    );
    for (const res of [foreign, otherPort]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('serves JSON from a loopback origin (a local tool that sends Origin)', async () => {
    const before = ran.length;
    const res = await send(
      '/v1/chat/completions',
      { ...local(), origin: `http://localhost:${port}`, 'content-type': 'application/json; charset=utf-8' },
      CHAT,
    );
    expect(res.status).toBe(200);
    expect(ran.slice(before)).toEqual(['write']);
  });

  it('with keys, any Host is served to a valid key (a proxy in front); the body must still be JSON', async () => {
    const before = ran.length;
    const keyed = { host: 'gateway.internal.example', authorization: `Bearer ${KEY}` };
    const ok = await send(
      '/v1/chat/completions',
      { ...keyed, 'content-type': 'application/json' },
      CHAT,
      'POST',
      keyedPort,
    );
    expect(ok.status).toBe(200);
    expect(ran.slice(before)).toEqual(['write']);
    const plain = await send(
      '/v1/chat/completions',
      { ...keyed, 'content-type': 'text/plain' },
      CHAT,
      'POST',
      keyedPort,
    );
    expect(plain.status).toBe(415);
    const noKey = await send(
      '/v1/chat/completions',
      { host: 'gateway.internal.example', 'content-type': 'text/plain' },
      CHAT,
      'POST',
      keyedPort,
    );
    expect(noKey.status).toBe(401);
    expect(ran.length).toBe(before + 1);
  });
});
