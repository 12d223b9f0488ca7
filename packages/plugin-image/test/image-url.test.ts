/**
 * image's URL input (fetched under web_fetch's address rules through @tool-search/net-guard), per-call `model` and
 * `maxBytesMb`, against a loopback image server and the mock OpenAI provider over HTTP.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type ToolCallOutcome } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { imagePlugin } from '@tool-search/plugin-image';
import { NetGuardErrors } from '@tool-search/net-guard';

// A GIF header is enough for the mock to read the size; the tool checks the magic bytes.
const GIF = Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 4, 0, 3, 0, 0, 0, 0, 0x3b]);
let mock: MockOpenAI;
let images: Server;
let base: string;
const hits: string[] = [];
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'image-url-')));

beforeAll(async () => {
  mock = await startMockOpenAI();
  images = createServer((req, res) => {
    hits.push(req.url!);
    if (req.url === '/pic.gif') res.writeHead(200, { 'content-type': 'image/gif' }).end(GIF);
    else if (req.url === '/moved') res.writeHead(302, { location: '/pic.gif' }).end();
    else if (req.url === '/big.gif')
      res.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.concat([GIF, Buffer.alloc(2 * 1024 * 1024)]));
    else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await mock.close();
  images.closeAllConnections();
  await new Promise((resolve) => images.close(resolve));
});

async function call(
  args: Record<string, unknown>,
  options: { allowPrivate?: boolean; maxBytesMb?: number } = { allowPrivate: true },
): Promise<ToolCallOutcome> {
  const kernel = createKernel({
    plugins: [imagePlugin({ workspace, model: 'mock-vision', baseURL: mock.url, apiKey: 'mock', ...options })],
  });
  const run = await kernel.createRun();
  try {
    return await run.call('image', args);
  } finally {
    await run.close();
    await kernel.close();
  }
}
const code = (o: ToolCallOutcome) => (o.status === 'error' ? o.error.code : o.status);

describe('image: URL, model, maxBytesMb', () => {
  it('an http(s) URL is fetched (redirects followed) and sent to the image model', async () => {
    const outcome = await call({ image: `${base}/moved`, prompt: 'What is it?' });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: {
        structuredContent: {
          image: `${base}/moved`,
          finalUrl: `${base}/pic.gif`,
          mime: 'image/gif',
          bytes: GIF.length,
        },
      },
    });
    expect((outcome as { result: { structuredContent: { text: string } } }).result.structuredContent.text).toBe(
      'Mock vision: image 1: image/gif 14 bytes, 4x3 pixels. Prompt: What is it?',
    );
  });

  it('a URL to a non-public address is URL_NOT_ALLOWED before any connection, as web_fetch refuses it', async () => {
    const before = hits.length;
    expect(code(await call({ image: `${base}/pic.gif` }, {}))).toBe(NetGuardErrors.URL_NOT_ALLOWED);
    expect(code(await call({ image: 'http://[::ffff:127.0.0.1]:9/x.png' }, {}))).toBe(NetGuardErrors.URL_NOT_ALLOWED);
    expect(code(await call({ image: 'http://169.254.169.254/latest/meta-data' }, {}))).toBe(
      NetGuardErrors.URL_NOT_ALLOWED,
    );
    expect(hits.length).toBe(before);
  });

  it('other schemes and credentials in the URL are refused', async () => {
    expect(code(await call({ image: 'file:///etc/passwd' }))).toBe(NetGuardErrors.URL_NOT_ALLOWED);
    expect(code(await call({ image: `http://user:pw@127.0.0.1:1/x.png` }))).toBe(NetGuardErrors.URL_NOT_ALLOWED);
  });

  it('a URL that is not an image, missing, or larger than maxBytesMb is refused with its code', async () => {
    expect(code(await call({ image: `${base}/page.html` }))).toBe('IMAGE_UNREADABLE');
    expect(code(await call({ image: `${base}/nothing.png` }))).toBe(NetGuardErrors.FETCH_FAILED);
    expect(code(await call({ image: `${base}/big.gif` }, { allowPrivate: true, maxBytesMb: 1 }))).toBe(
      'IMAGE_UNREADABLE',
    );
  });

  it('a per-call maxBytesMb lowers the limit but never raises it above the configured one', async () => {
    expect(code(await call({ image: `${base}/pic.gif`, maxBytesMb: 0.00001 }))).toBe('IMAGE_UNREADABLE');
    expect(code(await call({ image: `${base}/big.gif`, maxBytesMb: 50 }, { allowPrivate: true, maxBytesMb: 1 }))).toBe(
      'IMAGE_UNREADABLE',
    );
    expect(code(await call({ image: `${base}/big.gif`, maxBytesMb: 3 }, { allowPrivate: true, maxBytesMb: 4 }))).toBe(
      'ok',
    );
  });

  it('a per-call model is the model asked', async () => {
    const before = mock.requests.length;
    const outcome = await call({ image: `${base}/pic.gif`, model: 'mock-vision-large' });
    expect(outcome).toMatchObject({ status: 'ok', result: { structuredContent: { model: 'mock-vision-large' } } });
    const sent = mock.requests.slice(before).find((r) => r.path === '/v1/chat/completions')!.body as { model: string };
    expect(sent.model).toBe('mock-vision-large');
  });
});
