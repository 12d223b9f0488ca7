/**
 * web_fetch's Firecrawl fallback against a loopback server speaking Firecrawl's scrape API
 * (`POST /v2/scrape`, Bearer key, `{ success, data: { markdown, metadata } }`): used when the site blocks the
 * fetch or the local extraction yields too little, never for an address the rules refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, ToolSearchError, type Run, type ToolDefinition } from '@tool-search/kernel';
import { webPlugin, type WebConfig } from '../src/index.js';
import { ARTICLE, serve, type TestServer } from './serve.js';
import { NetGuardErrors } from '@tool-search/net-guard';

let site: TestServer;
let firecrawl: TestServer;
let broken: TestServer;
const scrapes: Record<string, unknown>[] = [];

beforeAll(async () => {
  site = await serve({
    '/article': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
    '/blocked': (_req, res) =>
      res.writeHead(403, { 'content-type': 'text/html' }).end('<html><body>Checking your browser…</body></html>'),
    '/app': (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script src="/bundle.js"></script></body></html>',
        ),
    '/tiny.json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
  });
  firecrawl = await serve({
    '/v2/scrape': (_req, res, body) => {
      const request = JSON.parse(body) as { url: string };
      scrapes.push(request);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          success: true,
          data: {
            markdown: `# Rendered page\n\nThe [full text](https://example.org/more) of ${request.url}, **rendered** by Firecrawl.`,
            metadata: { title: 'Rendered page', sourceURL: request.url, url: `${request.url}?final`, statusCode: 200 },
          },
        }),
      );
    },
  });
  broken = await serve({
    '/v2/scrape': (_req, res) =>
      res.writeHead(402, { 'content-type': 'application/json' }).end('{"success":false,"error":"Payment required"}'),
  });
});
afterAll(async () => {
  for (const server of [site, firecrawl, broken]) await server.close();
});

const runWith = (web: WebConfig, env: Record<string, string> = {}): Promise<Run> =>
  createKernel({ plugins: [webPlugin({ web, env })] }).createRun({});
const withFirecrawl = (baseUrl = firecrawl.url, allowPrivate = true): WebConfig => ({
  fetch: { allowPrivate, cacheTtlMinutes: 0, firecrawl: { apiKey: 'fc-test', baseUrl } },
});
/** The tool's own execute, to see the thrown error whole (a run's outcome keeps only code and message). */
async function executeDirectly(web: WebConfig, args: Record<string, unknown>): Promise<unknown> {
  const tools: ToolDefinition[] = [];
  const hook = {
    tap: (fn: (sink: unknown) => void) =>
      fn({ add: (list: ToolDefinition[]) => tools.push(...list), diagnostic: () => undefined }),
    tapPromise: () => undefined,
  };
  webPlugin({ web, env: {} }).apply({ hooks: { listTools: hook, shutdown: hook } } as never);
  const tool = tools.find((t) => t.name === 'web_fetch')!;
  return tool.execute!({ ...args }, { callId: 'c', signal: new AbortController().signal } as never);
}
const parsed = (outcome: Awaited<ReturnType<Run['call']>>) => {
  if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
  return JSON.parse((outcome.result.content[0] as { text: string }).text) as Record<string, unknown>;
};

describe('web_fetch Firecrawl fallback', () => {
  it('a page the site blocks (HTTP 403) is scraped through Firecrawl with the documented request', async () => {
    const run = await runWith(withFirecrawl());
    const page = parsed(await run.call('web_fetch', { url: `${site.url}/blocked` }));
    expect(page).toMatchObject({
      extractor: 'firecrawl',
      fallbackReason: NetGuardErrors.FETCH_FAILED,
      title: 'Rendered page',
      finalUrl: `${site.url}/blocked?final`,
      status: 200,
    });
    expect(page.text).toContain('# Rendered page');
    expect(scrapes.at(-1)).toEqual({
      url: `${site.url}/blocked`,
      formats: ['markdown'],
      onlyMainContent: true,
      maxAge: 172_800_000,
      proxy: 'auto',
      storeInCache: true,
      timeout: 60_000,
    });
    expect(firecrawl.requests.at(-1)!.headers.authorization).toBe('Bearer fc-test');
  });

  it('a page whose local extraction yields too little text (built by JavaScript) is scraped through Firecrawl, as text in text mode', async () => {
    const run = await runWith(withFirecrawl());
    const page = parsed(await run.call('web_fetch', { url: `${site.url}/app`, extractMode: 'text' }));
    expect(page).toMatchObject({ extractor: 'firecrawl', fallbackReason: 'tooLittleText', extractMode: 'text' });
    expect(page.text).toBe(`Rendered page\n\nThe full text of ${site.url}/app, rendered by Firecrawl.`);
  });

  it('a readable page and a short JSON body never ask Firecrawl', async () => {
    const run = await runWith(withFirecrawl());
    const before = scrapes.length;
    expect(parsed(await run.call('web_fetch', { url: `${site.url}/article` })).extractor).toBe('readability');
    expect(parsed(await run.call('web_fetch', { url: `${site.url}/tiny.json` })).extractor).toBe('raw');
    expect(scrapes.length).toBe(before);
  });

  it('an address the rules refuse stays URL_NOT_ALLOWED: Firecrawl is not a way around them', async () => {
    const run = await runWith(withFirecrawl(firecrawl.url, false));
    const before = scrapes.length;
    expect(await run.call('web_fetch', { url: `${site.url}/blocked` })).toMatchObject({
      status: 'error',
      error: { code: NetGuardErrors.URL_NOT_ALLOWED },
    });
    expect(scrapes.length).toBe(before);
  });

  it("when both fail the error is the local one, with Firecrawl's failure as its cause", async () => {
    const run = await runWith(withFirecrawl(broken.url));
    expect(await run.call('web_fetch', { url: `${site.url}/blocked` })).toMatchObject({
      status: 'error',
      error: { code: NetGuardErrors.FETCH_FAILED },
    });
    const error = await executeDirectly(withFirecrawl(broken.url), { url: `${site.url}/blocked` }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: NetGuardErrors.FETCH_FAILED,
      details: { rule: 'status', status: 403, fallback: 'firecrawl' },
    });
    expect((error as ToolSearchError).cause).toMatchObject({
      code: NetGuardErrors.FETCH_FAILED,
      details: { provider: 'firecrawl', status: 402 },
    });
  });

  it('when Firecrawl fails after a thin local extraction, the local text stands and says the fallback failed', async () => {
    const run = await runWith(withFirecrawl(broken.url));
    const page = parsed(await run.call('web_fetch', { url: `${site.url}/app` }));
    expect(page.extractor).not.toBe('firecrawl');
    expect(page.fallbackError).toEqual(expect.any(String));
  });

  it('reads FIRECRAWL_API_KEY; without a key (or with enabled: false) the fallback is off and a diagnostic says why', async () => {
    const fromEnv = await runWith(
      { fetch: { allowPrivate: true, firecrawl: { baseUrl: firecrawl.url } } },
      { FIRECRAWL_API_KEY: 'fc-env' },
    );
    expect(parsed(await fromEnv.call('web_fetch', { url: `${site.url}/blocked` })).extractor).toBe('firecrawl');
    expect(firecrawl.requests.at(-1)!.headers.authorization).toBe('Bearer fc-env');
    for (const web of [
      { fetch: { allowPrivate: true } },
      { fetch: { allowPrivate: true, firecrawl: { enabled: false, apiKey: 'k' } } },
    ] as WebConfig[]) {
      const run = await runWith(web);
      expect(run.diagnostics).toContainEqual(
        expect.objectContaining({
          code: ErrorCode.TOOL_NOT_CONFIGURED,
          toolId: 'core:core:web_fetch',
          details: { feature: 'firecrawl' },
        }),
      );
      expect(await run.call('web_fetch', { url: `${site.url}/blocked` })).toMatchObject({
        status: 'error',
        error: { code: NetGuardErrors.FETCH_FAILED },
      });
    }
  });

  it('rejects a bad tools.web.fetch.firecrawl naming the path', () => {
    expect(() => webPlugin({ web: { fetch: { firecrawl: { baseUrl: 'ftp://x' } } } })).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID, path: '/tools/web/fetch/firecrawl/baseUrl' }),
    );
  });
});
