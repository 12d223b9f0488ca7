import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, harness, type Harness } from './helpers.js';

let h: Harness;
let base: string;
beforeAll(async () => {
  h = await harness();
  base = (await h.gateway('direct', { maxBodyBytes: 64 * 1024 })).server.url;
});
afterAll(() => h.close());

/** Nested arrays as JSON text (JSON.stringify itself would overflow the stack on such a value). */
const DEEP = `${'['.repeat(20_000)}{"type":"text","text":"x"}${']'.repeat(20_000)}`;
const deep = () => ({ toJSON: () => '__DEEP__' });

const BAD_BODIES: Record<string, Record<string, unknown>> = {
  '/chat/completions messages: [null]': { path: '/chat/completions', body: { model: 'm', messages: [null] } },
  '/chat/completions object content': {
    path: '/chat/completions',
    body: { model: 'm', messages: [{ role: 'user', content: { text: 'x' } }] },
  },
  '/chat/completions deeply nested content': {
    path: '/chat/completions',
    body: { model: 'm', messages: [{ role: 'user', content: deep() }] },
  },
  '/chat/completions unknown role': {
    path: '/chat/completions',
    body: { model: 'm', messages: [{ role: 'wizard', content: 'x' }] },
  },
  '/chat/completions tool call without id': {
    path: '/chat/completions',
    body: { model: 'm', messages: [{ role: 'assistant', tool_calls: [{ function: { name: 'x', arguments: '{}' } }] }] },
  },
  '/chat/completions a body that is an array': { path: '/chat/completions', body: [1, 2] },
  '/responses input: [null]': { path: '/responses', body: { model: 'm', input: [null] } },
  '/responses object content': {
    path: '/responses',
    body: { model: 'm', input: [{ role: 'user', content: { text: 'x' } }] },
  },
  '/responses deeply nested input': { path: '/responses', body: { model: 'm', input: deep() } },
  '/messages messages: [null]': { path: '/messages', body: { model: 'm', max_tokens: 5, messages: [null] } },
  '/messages object content': {
    path: '/messages',
    body: { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: { text: 'x' } }] },
  },
  '/messages deeply nested content': {
    path: '/messages',
    body: { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: deep() }] },
  },
};

describe('malformed requests get typed 400s, never 500s with internals', () => {
  it.each(Object.entries(BAD_BODIES))('%s', async (_name, { path, body }) => {
    const res = await fetch(`${base}${path as string}`, {
      method: 'POST',
      body: JSON.stringify(body).replace('"__DEEP__"', DEEP),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe('REQUEST_INVALID');
    expect(json.error.message).not.toMatch(/\n\s+at /);
  });

  it('refuses a body that is not JSON with REQUEST_INVALID', async () => {
    const res = await fetch(`${base}/chat/completions`, {
      method: 'POST',
      body: '{"messages": [',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('REQUEST_INVALID');
  });
});

describe('an oversized body', () => {
  it('gets 413 REQUEST_TOO_LARGE and the same keep-alive connection answers the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(256 * 1024) }] });
      const first = await post(agent, `${base}/chat/completions`, big);
      expect(first.status).toBe(413);
      expect((JSON.parse(first.body) as { error: { code: string } }).error.code).toBe('REQUEST_TOO_LARGE');
      const second = await post(
        agent,
        `${base}/chat/completions`,
        JSON.stringify({ model: 'm', messages: ask('fake_plugin_tool_0003') }),
      );
      expect(second.status).toBe(200);
      expect(second.reused).toBe(true);
      expect(second.body).toContain('FAKE_TOOL_OK');
    } finally {
      agent.destroy();
    }
  });
});

function post(agent: Agent, url: string, body: string): Promise<{ status: number; body: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, reused: req.reusedSocket }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
