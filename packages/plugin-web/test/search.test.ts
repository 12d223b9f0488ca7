/**
 * web_search adapters against loopback servers that answer in each provider's
 * documented format: Brave Search `GET /res/v1/web/search` (X-Subscription-Token,
 * `web.results[]`) and Perplexity `POST /chat/completions` (Bearer key, an answer
 * plus `citations`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type Run } from '@tool-search/kernel';
import { webPlugin, type WebConfig } from '../src/index.js';
import { serve, type TestServer } from './serve.js';
import { WebErrors } from '../src/errors.js';

let brave: TestServer;
let perplexity: TestServer;
let failing: TestServer;

beforeAll(async () => {
  brave = await serve({
    '/res/v1/web/search': (req, res) => {
      const url = new URL(req.url!, 'http://x');
      const count = Number(url.searchParams.get('count'));
      const results = Array.from({ length: 10 }, (_, i) => ({
        title: `Result ${i} for ${url.searchParams.get('q')}`,
        url: `https://example.com/${i}`,
        description: `Snippet ${i}`,
        age: '2 days ago',
      }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ type: 'search', web: { type: 'search', results: results.slice(0, count) } }));
    },
  });
  perplexity = await serve({
    '/chat/completions': (_req, res, body) => {
      const request = JSON.parse(body) as { model: string; messages: { content: string }[] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'x',
          model: request.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: `Answer to ${request.messages[0]!.content} [1]` },
              finish_reason: 'stop',
            },
          ],
          citations: ['https://example.org/source'],
        }),
      );
    },
  });
  failing = await serve({
    '/res/v1/web/search': (_req, res) =>
      res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":"rate limited"}'),
  });
});
afterAll(async () => {
  await brave.close();
  await perplexity.close();
  await failing.close();
});

async function runWith(web: WebConfig, env: Record<string, string> = {}): Promise<Run> {
  return createKernel({ plugins: [webPlugin({ web, env })] }).createRun({});
}
const parsed = (outcome: Awaited<ReturnType<Run['call']>>) => {
  if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
  return JSON.parse((outcome.result.content[0] as { text: string }).text) as Record<string, unknown>;
};

describe('web_search', () => {
  it('is not listed without a key, and a diagnostic says what to set', async () => {
    const run = await runWith({});
    expect(run.tool('web_search')).toBeUndefined();
    expect(run.tool('web_fetch')).toBeDefined();
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({ code: ErrorCode.TOOL_NOT_CONFIGURED, toolId: 'core:core:web_search' }),
    );
  });

  it('is not listed when tools.web.search.enabled is false, even with a key', async () => {
    expect((await runWith({ search: { enabled: false, apiKey: 'k' } })).tool('web_search')).toBeUndefined();
  });

  it('asks Brave with the key, the query and the count, and maps web.results', async () => {
    const run = await runWith({ search: { apiKey: 'brave-key', maxResults: 3, brave: { baseUrl: brave.url } } });
    expect(run.tool('web_search')!.id).toBe('core:core:web_search');
    const result = parsed(await run.call('web_search', { query: 'tides in Brest' }));
    expect(result).toMatchObject({ provider: 'brave', count: 3, cached: false });
    expect((result.results as unknown[])[0]).toEqual({
      title: 'Result 0 for tides in Brest',
      url: 'https://example.com/0',
      description: 'Snippet 0',
      published: '2 days ago',
    });
    const request = brave.requests.at(-1)!;
    expect(request.headers['x-subscription-token']).toBe('brave-key');
    expect(new URL(request.url!, 'http://x').searchParams.get('count')).toBe('3');
    expect(
      (parsed(await run.call('web_search', { query: 'tides in Brest', count: 7 })).results as unknown[]).length,
    ).toBe(7);
  });

  it('reads BRAVE_API_KEY from the environment and caches repeated queries', async () => {
    const run = await runWith({ search: { brave: { baseUrl: brave.url } } }, { BRAVE_API_KEY: 'env-key' });
    const before = brave.hits.get('/res/v1/web/search') ?? 0;
    expect(parsed(await run.call('web_search', { query: 'cache me' })).cached).toBe(false);
    expect(parsed(await run.call('web_search', { query: 'cache me' })).cached).toBe(true);
    expect(brave.hits.get('/res/v1/web/search')).toBe(before + 1);
    expect(brave.requests.at(-1)!.headers['x-subscription-token']).toBe('env-key');
  });

  it('asks Perplexity Sonar with a bearer key and returns the answer with its citations', async () => {
    const run = await runWith(
      { search: { provider: 'perplexity', perplexity: { baseUrl: perplexity.url, model: 'sonar-pro' } } },
      { PERPLEXITY_API_KEY: 'pplx-test' },
    );
    const result = parsed(await run.call('web_search', { query: 'who maps the tides' }));
    expect(result).toMatchObject({
      provider: 'perplexity',
      model: 'sonar-pro',
      content: 'Answer to who maps the tides [1]',
      citations: ['https://example.org/source'],
    });
    expect(perplexity.requests.at(-1)!.headers.authorization).toBe('Bearer pplx-test');
  });

  it('reports a failing provider as SEARCH_PROVIDER_FAILED', async () => {
    const run = await runWith({ search: { apiKey: 'k', brave: { baseUrl: failing.url } } });
    expect(await run.call('web_search', { query: 'x' })).toMatchObject({
      status: 'error',
      error: { code: WebErrors.SEARCH_PROVIDER_FAILED },
    });
  });

  it('rejects a count outside 1–10 before asking the provider', async () => {
    const run = await runWith({ search: { apiKey: 'k', brave: { baseUrl: brave.url } } });
    await expect(run.call('web_search', { query: 'x', count: 11 })).rejects.toMatchObject({
      code: ErrorCode.TOOL_ARGUMENTS_INVALID,
    });
  });

  it('rejects a bad tools.web config naming the path', () => {
    expect(() => webPlugin({ web: { search: { maxResults: 50 } } })).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID, path: '/tools/web/search/maxResults' }),
    );
  });
});
