/**
 * Gemini, Grok and Kimi as web_search providers, each against a loopback server
 * answering in that provider's documented wire format, and the provider choice:
 * `tools.web.search.provider`, else auto-detection from the keys present.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type Run } from '@tool-search/kernel';
import { geminiProvider, kimiProvider, webPlugin, type WebConfig } from '../src/index.js';
import { serve, type TestServer } from './serve.js';
import { WebErrors } from '../src/errors.js';

let gemini: TestServer;
let grok: TestServer;
let kimi: TestServer;
let kimiUngrounded: TestServer;
const bodies = new Map<TestServer, unknown[]>();
const record = (server: () => TestServer, body: string) => {
  const list = bodies.get(server()) ?? [];
  list.push(JSON.parse(body));
  bodies.set(server(), list);
};

beforeAll(async () => {
  // Gemini generateContent with the google_search tool: grounded text + groundingMetadata.
  gemini = await serve({
    '/v1beta/models/gemini-2.5-flash:generateContent': (_req, res, body) => {
      record(() => gemini, body);
      const request = JSON.parse(body) as { contents: { parts: { text: string }[] }[] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          candidates: [
            {
              content: {
                role: 'model',
                parts: [{ text: `Grounded: ${request.contents[0]!.parts[0]!.text}.` }, { text: ' Second part.' }],
              },
              finishReason: 'STOP',
              groundingMetadata: {
                webSearchQueries: ['tides brest today'],
                groundingChunks: [
                  {
                    web: {
                      uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc',
                      title: 'maree.info',
                    },
                  },
                  {
                    web: {
                      uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc',
                      title: 'maree.info',
                    },
                  },
                ],
                groundingSupports: [
                  { segment: { startIndex: 0, endIndex: 10, text: 'Grounded: ' }, groundingChunkIndices: [0] },
                ],
              },
            },
          ],
          usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 20, totalTokenCount: 30 },
        }),
      );
    },
  });
  // xAI Responses API with the web_search tool: a web_search_call item, then a message with url_citation annotations.
  grok = await serve({
    '/v1/responses': (_req, res, body) => {
      record(() => grok, body);
      const request = JSON.parse(body) as { model: string; input: { content: string }[] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'resp_1',
          object: 'response',
          model: request.model,
          status: 'completed',
          output: [
            {
              type: 'web_search_call',
              id: 'ws_1',
              status: 'completed',
              action: { type: 'search', query: request.input[0]!.content },
            },
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [
                {
                  type: 'output_text',
                  text: `Grok says ${request.input[0]!.content}`,
                  annotations: [
                    { type: 'url_citation', url: 'https://x.example/a', title: 'A', start_index: 0, end_index: 4 },
                  ],
                },
              ],
            },
          ],
          citations: ['https://x.example/a', 'https://x.example/b'],
        }),
      );
    },
  });
  // Moonshot chat completions with the builtin $web_search: a tool_calls round, then the answer.
  kimi = await serve({
    '/v1/chat/completions': (_req, res, body) => {
      record(() => kimi, body);
      const request = JSON.parse(body) as { model: string; messages: { role: string; content?: string }[] };
      const answered = request.messages.some((m) => m.role === 'tool');
      const message = answered
        ? { role: 'assistant', content: 'Kimi answer, see https://moon.example/source.' }
        : {
            role: 'assistant',
            content: '',
            tool_calls: [
              {
                index: 0,
                id: '$web_search:1',
                type: 'builtin_function',
                function: {
                  name: '$web_search',
                  arguments: JSON.stringify({ search_result: { search_id: 's-1' }, usage: { total_tokens: 120 } }),
                },
              },
            ],
          };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'c',
          object: 'chat.completion',
          model: request.model,
          choices: [{ index: 0, message, finish_reason: answered ? 'stop' : 'tool_calls' }],
        }),
      );
    },
  });
  kimiUngrounded = await serve({
    '/v1/chat/completions': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'c',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'I cannot browse the internet.' },
              finish_reason: 'stop',
            },
          ],
        }),
      );
    },
  });
});
afterAll(async () => {
  for (const server of [gemini, grok, kimi, kimiUngrounded]) await server.close();
});

const runWith = (web: WebConfig, env: Record<string, string> = {}): Promise<Run> =>
  createKernel({ plugins: [webPlugin({ web, env })] }).createRun({});
const parsed = (outcome: Awaited<ReturnType<Run['call']>>) => {
  if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
  return JSON.parse((outcome.result.content[0] as { text: string }).text) as Record<string, unknown>;
};

describe('web_search: Gemini (Google Search grounding)', () => {
  it('asks generateContent with the google_search tool and the x-goog-api-key header, and returns the grounded answer with its citations', async () => {
    const run = await runWith(
      { search: { provider: 'gemini', gemini: { baseUrl: `${gemini.url}/v1beta` } } },
      { GEMINI_API_KEY: 'AIza-test' },
    );
    const result = parsed(await run.call('web_search', { query: 'tides in Brest' }));
    expect(result).toMatchObject({
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      content: 'Grounded: tides in Brest. Second part.',
      searchQueries: ['tides brest today'],
      cached: false,
    });
    expect(result.citations).toEqual([
      { url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc', title: 'maree.info' },
    ]);
    const request = gemini.requests.at(-1)!;
    expect(request.headers['x-goog-api-key']).toBe('AIza-test');
    expect(request.url).not.toContain('AIza-test');
    expect(bodies.get(gemini)!.at(-1)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'tides in Brest' }] }],
      tools: [{ google_search: {} }],
    });
  });

  it('a Gemini answer without parts is SEARCH_PROVIDER_FAILED (shape), not an empty answer', async () => {
    const empty = await serve({
      '/models/m:generateContent': (_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"candidates":[]}'),
    });
    try {
      const run = await runWith({
        search: { provider: 'gemini', gemini: { apiKey: 'k', baseUrl: empty.url, model: 'm' } },
      });
      expect(await run.call('web_search', { query: 'x' })).toMatchObject({
        status: 'error',
        error: { code: WebErrors.SEARCH_PROVIDER_FAILED },
      });
      await expect(
        geminiProvider('k', empty.url, 'm', 30).search({ query: 'x', count: 1 }, new AbortController().signal),
      ).rejects.toMatchObject({
        code: WebErrors.SEARCH_PROVIDER_FAILED,
        details: { provider: 'gemini', rule: 'shape' },
      });
    } finally {
      await empty.close();
    }
  });
});

describe('web_search: Grok (xAI Responses API)', () => {
  it('asks /v1/responses with the web_search tool and a bearer key, and merges annotation and top-level citations', async () => {
    const run = await runWith(
      { search: { provider: 'grok', grok: { baseUrl: `${grok.url}/v1`, inlineCitations: true } } },
      { XAI_API_KEY: 'xai-test' },
    );
    const result = parsed(await run.call('web_search', { query: 'latest rust release' }));
    expect(result).toMatchObject({
      provider: 'grok',
      model: 'grok-4-1-fast',
      content: 'Grok says latest rust release',
    });
    expect(result.citations).toEqual([{ url: 'https://x.example/a', title: 'A' }, { url: 'https://x.example/b' }]);
    expect(grok.requests.at(-1)!.headers.authorization).toBe('Bearer xai-test');
    expect(bodies.get(grok)!.at(-1)).toEqual({
      model: 'grok-4-1-fast',
      input: [{ role: 'user', content: 'latest rust release' }],
      tools: [{ type: 'web_search' }],
      include: ['inline_citations'],
    });
  });
});

describe('web_search: Kimi (Moonshot $web_search)', () => {
  it('declares the builtin $web_search, echoes its arguments back as the tool result, and returns the answer', async () => {
    const run = await runWith(
      { search: { provider: 'kimi', kimi: { baseUrl: `${kimi.url}/v1`, model: 'kimi-k2.5' } } },
      { MOONSHOT_API_KEY: 'sk-moon' },
    );
    const before = bodies.get(kimi)?.length ?? 0;
    const result = parsed(await run.call('web_search', { query: 'moon phase today' }));
    expect(result).toMatchObject({
      provider: 'kimi',
      model: 'kimi-k2.5',
      content: 'Kimi answer, see https://moon.example/source.',
      searches: 1,
      citations: [{ url: 'https://moon.example/source' }],
    });
    const [first, second] = bodies.get(kimi)!.slice(before) as {
      tools: unknown;
      messages: { role: string; content?: string; tool_call_id?: string; name?: string }[];
    }[];
    expect(first!.tools).toEqual([{ type: 'builtin_function', function: { name: '$web_search' } }]);
    const toolMessage = second!.messages.at(-1)!;
    expect(toolMessage).toMatchObject({ role: 'tool', tool_call_id: '$web_search:1', name: '$web_search' });
    expect(JSON.parse(toolMessage.content!)).toEqual({
      search_result: { search_id: 's-1' },
      usage: { total_tokens: 120 },
    });
    expect(kimi.requests.at(-1)!.headers.authorization).toBe('Bearer sk-moon');
  });

  it('an answer with no search behind it is SEARCH_PROVIDER_FAILED (ungrounded), not a search result', async () => {
    const run = await runWith({
      search: { provider: 'kimi', kimi: { apiKey: 'k', baseUrl: `${kimiUngrounded.url}/v1` } },
    });
    expect(await run.call('web_search', { query: 'x' })).toMatchObject({
      status: 'error',
      error: { code: WebErrors.SEARCH_PROVIDER_FAILED },
    });
    await expect(
      kimiProvider('k', `${kimiUngrounded.url}/v1`, 'kimi-k2.5', 30).search(
        { query: 'x', count: 1 },
        new AbortController().signal,
      ),
    ).rejects.toMatchObject({
      code: WebErrors.SEARCH_PROVIDER_FAILED,
      details: { provider: 'kimi', rule: 'ungrounded' },
    });
  });
});

describe('tools.web.search.provider', () => {
  const description = async (web: WebConfig, env: Record<string, string>) =>
    (await runWith(web, env)).tool('web_search')?.description;

  it('auto-detects from the keys present in the order Brave, Gemini, Perplexity, Grok, Kimi', async () => {
    expect(await description({}, { KIMI_API_KEY: 'k' })).toContain('(kimi)');
    expect(await description({}, { KIMI_API_KEY: 'k', XAI_API_KEY: 'x' })).toContain('(grok)');
    expect(await description({}, { XAI_API_KEY: 'x', PERPLEXITY_API_KEY: 'p' })).toContain('(perplexity)');
    expect(await description({}, { PERPLEXITY_API_KEY: 'p', GEMINI_API_KEY: 'g' })).toContain('(gemini)');
    expect(await description({}, { GEMINI_API_KEY: 'g', BRAVE_API_KEY: 'b' })).toContain('(brave)');
  });

  it('an explicit provider wins over auto-detection, and without its key web_search is not listed and the diagnostic names the key', async () => {
    expect(await description({ search: { provider: 'grok' } }, { BRAVE_API_KEY: 'b', XAI_API_KEY: 'x' })).toContain(
      '(grok)',
    );
    const run = await runWith({ search: { provider: 'kimi' } }, { BRAVE_API_KEY: 'b' });
    expect(run.tool('web_search')).toBeUndefined();
    const diagnostic = run.diagnostics.find((d) => d.toolId === 'core:core:web_search');
    expect(diagnostic).toMatchObject({ code: ErrorCode.TOOL_NOT_CONFIGURED });
    expect(diagnostic!.message).toContain('MOONSHOT_API_KEY');
  });

  it('rejects an unknown provider naming the path', () => {
    expect(() => webPlugin({ web: { search: { provider: 'bing' as 'brave' } } })).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID, path: '/tools/web/search/provider' }),
    );
  });
});
