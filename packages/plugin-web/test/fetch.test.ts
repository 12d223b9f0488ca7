import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, ToolSearchError, type Run } from '@tool-search/kernel';
import { webPlugin } from '../src/index.js';
import { createFetcher } from '../src/fetch-page.js';
import { FETCH_DEFAULTS } from '../src/options.js';
import { ARTICLE, serve, type TestServer } from './serve.js';
import { NetGuardErrors } from '@tool-search/net-guard';

let server: TestServer;
let run: Run;

beforeAll(async () => {
  server = await serve({
    '/article': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
    '/moved': (_req, res) => res.writeHead(302, { location: '/article' }).end(),
    '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/data.json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"tide":"high"}'),
    '/image.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64)),
    '/huge': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(3_000_000)),
    '/slow': (_req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('late'), 3_000),
    '/cached': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('cached body'),
  });
  const kernel = createKernel({
    plugins: [webPlugin({ web: { fetch: { allowPrivate: true, maxCharsCap: 5_000, timeoutSeconds: 1 } }, env: {} })],
  });
  run = await kernel.createRun({});
});
afterAll(async () => {
  await run.close();
  await server.close();
});

const text = (outcome: Awaited<ReturnType<Run['call']>>) => {
  if (outcome.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(outcome)}`);
  return JSON.parse((outcome.result.content[0] as { text: string }).text) as Record<string, unknown>;
};

describe('web_fetch against a loopback server (allowPrivate on)', () => {
  it('is core:core:web_fetch with the documented parameters', () => {
    const tool = run.tool('web_fetch')!;
    expect(tool.id).toBe('core:core:web_fetch');
    expect(Object.keys((tool.inputSchema as { properties: object }).properties)).toEqual([
      'url',
      'extractMode',
      'maxChars',
    ]);
  });

  it('extracts the article as markdown: title, headings, paragraphs, no navigation or script', async () => {
    const page = text(await run.call('web_fetch', { url: `${server.url}/article` }));
    expect(page).toMatchObject({
      status: 200,
      title: 'Tide tables for Brest',
      extractMode: 'markdown',
      extractor: 'readability',
      truncated: false,
    });
    expect(page.text).toContain('High tide in Brest today is at 06:42');
    expect(page.text).toMatch(/^## Notes$/m);
    expect(page.text).toMatch(/^-\s+Times are local\.$/m);
    expect(page.text).not.toContain('alert(1)');
    expect(page.text).not.toContain('Copyright');
  });

  it('returns plain text in text mode', async () => {
    const page = text(await run.call('web_fetch', { url: `${server.url}/article`, extractMode: 'text' }));
    expect(page.text).toContain('Low tide follows');
    expect(page.text).not.toMatch(/^#/m);
  });

  it('truncates to maxChars, and caps maxChars at tools.web.fetch.maxCharsCap', async () => {
    expect(text(await run.call('web_fetch', { url: `${server.url}/article`, maxChars: 120 }))).toMatchObject({
      truncated: true,
      length: 120,
    });
    const capped = text(await run.call('web_fetch', { url: `${server.url}/huge`, maxChars: 1_000_000 }));
    expect(capped).toMatchObject({ truncated: true, length: 5_000 });
  });

  it('follows redirects and reports the final URL', async () => {
    expect(text(await run.call('web_fetch', { url: `${server.url}/moved` }))).toMatchObject({
      finalUrl: `${server.url}/article`,
      status: 200,
    });
  });

  it('returns JSON and text bodies as they are; refuses binary content', async () => {
    expect(text(await run.call('web_fetch', { url: `${server.url}/data.json` }))).toMatchObject({
      text: '{"tide":"high"}',
      extractor: 'raw',
    });
    expect(await run.call('web_fetch', { url: `${server.url}/image.png` })).toMatchObject({
      status: 'error',
      error: { code: NetGuardErrors.FETCH_FAILED },
    });
  });

  it('serves a repeated fetch from the cache', async () => {
    const first = text(await run.call('web_fetch', { url: `${server.url}/cached` }));
    const second = text(await run.call('web_fetch', { url: `${server.url}/cached` }));
    expect([first.cached, second.cached]).toEqual([false, true]);
    expect(server.hits.get('/cached')).toBe(1);
  });

  it('fails with FETCH_FAILED on HTTP errors, redirect loops and timeouts', async () => {
    for (const path of ['/missing', '/loop', '/slow']) {
      expect(await run.call('web_fetch', { url: `${server.url}${path}` })).toMatchObject({
        status: 'error',
        error: { code: NetGuardErrors.FETCH_FAILED },
      });
    }
  });

  it('rejects arguments outside the schema before fetching', async () => {
    await expect(run.call('web_fetch', { url: `${server.url}/article`, extractMode: 'html' })).rejects.toMatchObject({
      code: ErrorCode.TOOL_ARGUMENTS_INVALID,
    });
    await expect(run.call('web_fetch', {})).rejects.toMatchObject({ code: ErrorCode.TOOL_ARGUMENTS_INVALID });
  });
});

describe('fetch limits name their rule', () => {
  const fetcher = createFetcher({
    ...FETCH_DEFAULTS,
    allowPrivate: true,
    timeoutSeconds: 1,
    maxResponseBytes: 10_000,
    maxRedirects: 2,
  });
  const rule = async (path: string) => {
    const error = await fetcher
      .fetchPage(`${server.url}${path}`, new AbortController().signal)
      .catch((e: unknown) => e);
    return ToolSearchError.isInstance(error) ? (error.details as { rule?: string }).rule : 'no error';
  };
  afterAll(() => fetcher.close());

  it.each([
    ['/missing', 'status'],
    ['/loop', 'maxRedirects'],
    ['/slow', 'timeout'],
  ])('%s → %s', async (path, expected) => {
    expect(await rule(path)).toBe(expected);
  });

  it('reads at most maxResponseBytes', async () => {
    const page = await fetcher.fetchPage(`${server.url}/huge`, new AbortController().signal);
    expect(page.body.length).toBe(10_000);
    expect(page.bodyTruncated).toBe(true);
  });
});
