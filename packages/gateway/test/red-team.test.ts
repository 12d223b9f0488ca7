/**
 * The keyless loopback gateway against requests a web page, a rebinding name or a confused proxy could make, byte for
 * byte over a raw socket (Node's client would normalize them): Host and Origin spellings, Content-Type spellings,
 * absolute-form targets, duplicate headers, method overrides, WebSocket upgrades, chunked bodies and
 * `Expect: 100-continue`. Every refused variant is refused before the turn (the `write` tool never runs and the
 * upstream model is never asked); every allowed one is a spelling of this machine's loopback.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KernelPlugin } from '@tool-search/kernel';
import { harness, type Harness } from './helpers.js';

const WRITE = 'tool search qa check target=write args={"path":"pwned.txt","content":"x"}';
const CHAT = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: WRITE }] });
const JSON_TYPE = 'content-type: application/json';

let h: Harness;
let port: number;
const ran: string[] = [];
const recorder: KernelPlugin = {
  name: 'test-recorder',
  apply: ({ hooks }) => hooks.afterToolCall.tap((call) => void ran.push(call.tool.name)),
};

beforeAll(async () => {
  h = await harness();
  port = (await h.gateway('direct', { plugins: [recorder] })).server.port;
});
afterAll(() => h.close());

/** Sends `head` (request line and header lines, no CRLFs) and `body` as raw bytes; resolves with the status code (0: no answer). */
function raw(head: string[], body = ''): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      // One answer is enough: a keep-alive connection would otherwise stay open.
      if (/\r\n\r\n/.test(text) && answerComplete(text)) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: finalStatus(text), text }));
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
}

/** The last status line's code (after an interim `100 Continue`); 0 when nothing came back. */
function finalStatus(text: string): number {
  return Number([...text.matchAll(/^HTTP\/1\.[01] (\d{3})/gm)].at(-1)?.[1] ?? 0);
}

function answerComplete(text: string): boolean {
  const [head, ...rest] = text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '').split('\r\n\r\n');
  const length = /content-length: (\d+)/i.exec(head!)?.[1];
  if (length !== undefined) return Buffer.byteLength(rest.join('\r\n\r\n'), 'latin1') >= Number(length);
  return /transfer-encoding: chunked/i.test(head!) ? text.endsWith('0\r\n\r\n') : false;
}

/** A chat request that would run `write`, with these header lines (Content-Length added). */
const post = (headers: string[], target = '/v1/chat/completions', body = CHAT) =>
  raw([`POST ${target} HTTP/1.1`, ...headers, `content-length: ${Buffer.byteLength(body)}`, 'connection: close'], body);

async function expectNothingRan(attempt: () => Promise<{ status: number; text: string }>, status: number) {
  const before = { ran: ran.length, upstream: h.received('openai').length };
  const answer = await attempt();
  expect(answer.status, answer.text.slice(0, 300)).toBe(status);
  expect({ ran: ran.length, upstream: h.received('openai').length }).toEqual(before);
  return answer;
}

describe('Host spellings', () => {
  const foreign = [
    'localhost.',
    'LOCALHOST.',
    'localhost.attacker.example',
    '127.0.0.1.nip.io',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    'user@127.0.0.1',
    '127.0.0.1@attacker.example',
    'attacker.example#@127.0.0.1',
    '127.0.0.1 attacker.example',
    '127.0.0.1,attacker.example',
    '127.0.0.1/attacker',
    '%31%32%37.0.0.1',
    '127.0.0.1:99999',
    '[::1]attacker',
    '[::1',
    '0.0.0.0',
    '[::]',
    '169.254.0.1',
    '',
  ];
  for (const host of foreign) {
    it(`refuses Host ${JSON.stringify(host)}: 403, nothing runs`, async () => {
      const answer = await expectNothingRan(() => post([`host: ${host}`, JSON_TYPE]), 403);
      expect(answer.text).toContain('AUTH_NOT_LOOPBACK');
    });
  }

  it('refuses a request without any Host (HTTP/1.0)', async () => {
    await expectNothingRan(
      () => raw(['POST /v1/chat/completions HTTP/1.0', JSON_TYPE, `content-length: ${Buffer.byteLength(CHAT)}`], CHAT),
      403,
    );
  });

  it('a second Host header is not read past the first (Node keeps the first; llhttp refuses neither)', async () => {
    const answer = await post([`host: attacker.example`, `host: 127.0.0.1:${port}`, JSON_TYPE]);
    expect([400, 403]).toContain(answer.status);
  });

  const loopback = [
    '127.0.0.1',
    'LOCALHOST',
    'LocalHost',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
    '127.1',
    '0x7f.1',
    '127.9.9.9',
  ];
  for (const host of loopback) {
    it(`serves Host ${host} (a spelling of loopback)`, async () => {
      const answer = await post([`host: ${host}:${port}`, JSON_TYPE]);
      expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    });
  }
});

describe('absolute-form request targets', () => {
  it('refuses a target naming another authority, whatever the Host header says', async () => {
    for (const target of [
      'http://attacker.example/v1/chat/completions',
      `http://attacker.example:${port}/v1/chat/completions`,
      'https://127.0.0.1.attacker.example/v1/chat/completions',
    ]) {
      await expectNothingRan(() => post([`host: 127.0.0.1:${port}`, JSON_TYPE], target), 403);
    }
  });

  it('serves an absolute-form target naming loopback', async () => {
    const answer = await post([`host: 127.0.0.1:${port}`, JSON_TYPE], `http://127.0.0.1:${port}/v1/chat/completions`);
    expect(answer.status).toBe(200);
  });
});

describe('Origin spellings', () => {
  const foreign = [
    'null',
    'file://',
    'file:///etc/passwd',
    'http://localhost.attacker.example',
    'http://127.0.0.1.nip.io',
    'http://attacker.example, http://127.0.0.1',
    'http://127.0.0.1/path',
    'http://user@127.0.0.1',
    'chrome-extension://abcdefghijklmnop',
    'ws://127.0.0.1',
    'data:',
    'http://[::ffff:127.0.0.1]',
    '',
  ];
  for (const origin of foreign) {
    it(`refuses Origin ${JSON.stringify(origin)}: 403, nothing runs`, async () => {
      await expectNothingRan(() => post([`host: 127.0.0.1:${port}`, `origin: ${origin}`, JSON_TYPE]), 403);
    });
  }

  it('refuses two Origin headers when either is foreign (Node joins them)', async () => {
    await expectNothingRan(
      () =>
        post([`host: 127.0.0.1:${port}`, 'origin: http://127.0.0.1', 'origin: https://attacker.example', JSON_TYPE]),
      403,
    );
  });

  for (const origin of ['HTTP://LOCALHOST:5173', 'https://localhost', 'http://[::1]:8080', 'http://127.0.0.1']) {
    it(`serves Origin ${origin} (a loopback page)`, async () => {
      expect((await post([`host: 127.0.0.1:${port}`, `origin: ${origin}`, JSON_TYPE])).status).toBe(200);
    });
  }
});

describe('Content-Type spellings', () => {
  const refused = [
    'application/jsonx',
    'application/json-patch+json',
    'application/x-json',
    'text/json',
    'text/plain;application/json',
    'text/plain; charset=application/json',
    'application/x-www-form-urlencoded; application/json',
    'multipart/form-data; boundary=application/json',
    ' text/plain',
    'application',
    '',
  ];
  for (const type of refused) {
    it(`refuses Content-Type ${JSON.stringify(type)}: 415, nothing runs`, async () => {
      // From a page on another loopback port: the Origin rule lets it through, the body type must not.
      const answer = await expectNothingRan(
        () => post([`host: 127.0.0.1:${port}`, 'origin: http://127.0.0.1:5173', `content-type: ${type}`]),
        415,
      );
      expect(answer.text).toContain('REQUEST_NOT_JSON');
    });
  }

  it('a control character in Content-Type is refused by the parser (400), nothing runs', async () => {
    await expectNothingRan(() => post([`host: 127.0.0.1:${port}`, 'content-type: application/json\u000bx']), 400);
  });

  it('refuses a second Content-Type header behind a text/plain one (Node keeps the first)', async () => {
    await expectNothingRan(() => post([`host: 127.0.0.1:${port}`, 'content-type: text/plain', JSON_TYPE]), 415);
  });

  for (const type of ['application/json;charset=utf-8', 'Application/JSON', 'application/json ; charset=UTF-8']) {
    it(`serves Content-Type ${type}`, async () => {
      expect((await post([`host: 127.0.0.1:${port}`, `content-type: ${type}`])).status).toBe(200);
    });
  }
});

describe('methods, upgrades and framing', () => {
  it('a method override header does not turn a GET into a chat turn', async () => {
    for (const name of ['x-http-method-override', 'x-http-method', 'x-method-override']) {
      await expectNothingRan(
        () =>
          raw([
            `GET /v1/chat/completions?body=${encodeURIComponent(CHAT)} HTTP/1.1`,
            `host: 127.0.0.1:${port}`,
            `${name}: POST`,
            'connection: close',
          ]),
        404,
      );
    }
  });

  it('a WebSocket upgrade from a foreign page is refused; no turn runs', async () => {
    const upgrade = (origin: string) => () =>
      raw([
        'GET /v1/chat/completions HTTP/1.1',
        `host: 127.0.0.1:${port}`,
        `origin: ${origin}`,
        'upgrade: websocket',
        'connection: Upgrade',
        'sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-version: 13',
      ]);
    const before = ran.length;
    expect([0, 403]).toContain((await upgrade('https://attacker.example')()).status);
    expect([0, 404]).toContain((await upgrade('http://127.0.0.1')()).status);
    expect(ran.length).toBe(before);
  });

  it('a chunked text/plain body, and Expect: 100-continue from a foreign Host, are refused; nothing runs', async () => {
    const chunked = `${CHAT.length.toString(16)}\r\n${CHAT}\r\n0\r\n\r\n`;
    await expectNothingRan(
      () =>
        raw(
          [
            'POST /v1/chat/completions HTTP/1.1',
            `host: 127.0.0.1:${port}`,
            'content-type: text/plain',
            'transfer-encoding: chunked',
            'connection: close',
          ],
          chunked,
        ),
      415,
    );
    // Node answers 100 Continue by itself; the refusal follows before any of the body is used.
    await expectNothingRan(
      () =>
        raw([
          'POST /v1/chat/completions HTTP/1.1',
          'host: attacker.example',
          JSON_TYPE,
          'expect: 100-continue',
          `content-length: ${CHAT.length}`,
          'connection: close',
        ]),
      403,
    );
  });

  it('Transfer-Encoding beside Content-Length (request smuggling) is refused by the parser', async () => {
    const answer = await expectNothingRan(
      () =>
        raw(
          [
            'POST /v1/chat/completions HTTP/1.1',
            `host: 127.0.0.1:${port}`,
            JSON_TYPE,
            `content-length: 4`,
            'transfer-encoding: chunked',
            'connection: close',
          ],
          `0\r\n\r\nPOST /v1/chat/completions HTTP/1.1\r\nhost: attacker.example\r\n${JSON_TYPE}\r\ncontent-length: ${CHAT.length}\r\n\r\n${CHAT}`,
        ),
      400,
    );
    expect(answer.text).not.toContain('200 OK');
  });
});
