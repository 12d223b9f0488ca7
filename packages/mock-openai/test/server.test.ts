import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embed, EMBEDDING_DIMENSIONS, startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import {
  ASK,
  TARGET,
  callTool,
  called,
  codeTool,
  fn,
  result,
  searchResult,
  searchTool,
  system,
  user,
} from './fixtures.js';

let mock: MockOpenAI;
let client: OpenAI;

beforeAll(async () => {
  mock = await startMockOpenAI();
  client = new OpenAI({ baseURL: mock.url, apiKey: 'test-key', maxRetries: 0 });
});
afterAll(() => mock.close());

const asParams = (messages: unknown[], tools: unknown[]) =>
  ({ model: 'mock-tool-search', messages, tools }) as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

describe('mock OpenAI server (official client over HTTP)', () => {
  it('listens on 127.0.0.1 under /v1', () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('lists models', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('mock-tool-search');
  });

  it('argsText="…": sends that exact arguments text (a model writing invalid JSON)', async () => {
    const res = await client.chat.completions.create(
      asParams([user(`${ASK} argsText="{\\"q\\": \\"x"`)], [fn(TARGET)]),
    );
    const call = res.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function : undefined).toEqual({ name: TARGET, arguments: '{"q": "x' });
  });

  it('direct lane: calls the target', async () => {
    const res = await client.chat.completions.create(asParams([user(ASK)], [fn(TARGET)]));
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    const call = res.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.name).toBe(TARGET);
  });

  it('code lane: calls tool_search_code with code', async () => {
    const res = await client.chat.completions.create(asParams([user(ASK)], [codeTool]));
    const call = res.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
      code: expect.stringContaining(TARGET),
    });
  });

  it('tools lane: searches, then calls tool_call with the hit id', async () => {
    const first = await client.chat.completions.create(asParams([user(ASK)], [searchTool, callTool]));
    const search = first.choices[0]?.message.tool_calls?.[0];
    expect(search?.type === 'function' && search.function.name).toBe('tool_search');
    const history = [user(ASK), first.choices[0]!.message, result(search!.id, searchResult)];
    const second = await client.chat.completions.create(asParams(history, [searchTool, callTool]));
    const call = second.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
      id: `plugin:fake:${TARGET}`,
      args: {},
    });
  });

  it('directory lane: calls the hidden name', async () => {
    const res = await client.chat.completions.create(
      asParams([system(`Directory: ${TARGET}`), user(ASK)], [searchTool]),
    );
    const call = res.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.name).toBe(TARGET);
  });

  it('answers quoting the result when the target ran', async () => {
    const messages = [user(ASK), called('c1', TARGET, {}), result('c1', 'FAKE_TOOL_OK 42')];
    const res = await client.chat.completions.create(asParams(messages, [fn(TARGET)]));
    expect(res.choices[0]?.finish_reason).toBe('stop');
    expect(res.choices[0]?.message.content).toContain('FAKE_TOOL_OK 42');
  });

  it('streams the same step as SSE chunks', async () => {
    const stream = await client.chat.completions.create({
      ...asParams([user(ASK)], [fn(TARGET)]),
      stream: true,
      stream_options: { include_usage: true },
    });
    const names: string[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        for (const call of choice.delta.tool_calls ?? []) if (call.function?.name) names.push(call.function.name);
        finish = choice.finish_reason ?? finish;
      }
    }
    expect(names).toEqual([TARGET]);
    expect(finish).toBe('tool_calls');
  });

  it('records each request body exactly as received', async () => {
    const raw = '{"model":"m",  "messages":[{"role":"user","content":"hi \\u00e9"}],"extra":{"keep":true}}';
    const before = mock.requests.length;
    const res = await fetch(`${mock.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: raw,
    });
    expect(res.status).toBe(200);
    const recorded = mock.requests[before];
    expect(recorded).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      raw,
      body: JSON.parse(raw),
      step: { kind: 'answer' },
    });
  });

  it('records what the official client sent', async () => {
    const before = mock.requests.length;
    await client.chat.completions.create(asParams([user(ASK)], [fn(TARGET)]));
    const recorded = mock.requests[before];
    expect(recorded?.body).toMatchObject({
      model: 'mock-tool-search',
      messages: [{ role: 'user', content: ASK }],
      tools: [fn(TARGET)],
    });
    expect(JSON.parse(recorded!.raw)).toEqual(recorded?.body);
  });

  it('answers 400 with an OpenAI error body for a body without messages', async () => {
    const res = await fetch(`${mock.url}/chat/completions`, { method: 'POST', body: '{"model":"m"}' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_body' } });
  });

  it('answers 404 for unknown routes', async () => {
    const res = await fetch(`${mock.url}/audio/speech`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'unknown_route' } });
  });
});

const cosine = (a: readonly number[], b: readonly number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('mock /v1/embeddings (official client over HTTP)', () => {
  it('answers a batch with one unit vector per input, in order, deterministically', async () => {
    const input = ['read a file from disk', 'Read the contents of a file', 'post a message to slack'];
    const first = await client.embeddings.create({ model: 'mock-embedding', input });
    const again = await client.embeddings.create({ model: 'mock-embedding', input });
    expect(first.data.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(first.data.map((d) => d.embedding)).toEqual(again.data.map((d) => d.embedding));
    for (const { embedding } of first.data) {
      expect(embedding).toHaveLength(EMBEDDING_DIMENSIONS);
      expect(cosine(embedding, embedding)).toBeCloseTo(1, 5);
    }
    const [read, contents, slack] = first.data.map((d) => d.embedding);
    expect(cosine(read!, contents!)).toBeGreaterThan(cosine(read!, slack!));
    expect(first.usage.total_tokens).toBeGreaterThan(0);
  });

  it('decodes to the same vector in float and base64 encodings', async () => {
    const floats = await client.embeddings.create({ model: 'm', input: 'weather in Oslo', encoding_format: 'float' });
    const base64 = await client.embeddings.create({ model: 'm', input: 'weather in Oslo' });
    expect(base64.data[0]!.embedding).toEqual(floats.data[0]!.embedding);
    expect(floats.data[0]!.embedding).toEqual([...embed('weather in Oslo')]);
  });

  it('honours dimensions and refuses a body without input', async () => {
    expect(
      (await client.embeddings.create({ model: 'm', input: 'x y', dimensions: 64 })).data[0]!.embedding,
    ).toHaveLength(64);
    await expect(client.embeddings.create({ model: 'm', input: [] as string[] })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('fails on demand (embeddings.failStatus) for fallback tests', async () => {
    const failing = await startMockOpenAI({ embeddings: { failStatus: 503 } });
    try {
      const broken = new OpenAI({ baseURL: failing.url, apiKey: 'k', maxRetries: 0 });
      await expect(broken.embeddings.create({ model: 'm', input: 'x' })).rejects.toMatchObject({ status: 503 });
    } finally {
      await failing.close();
    }
  });
});

describe('mock OpenAI server: the Responses API (official client over HTTP)', () => {
  const fnTool = (name: string, defer = false) => ({
    type: 'function',
    name,
    parameters: { type: 'object', properties: {} },
    strict: false,
    ...(defer ? { defer_loading: true } : {}),
  });
  const create = (input: unknown, tools: unknown[]) =>
    client.responses.create({ model: 'mock-tool-search', input, tools } as never) as unknown as Promise<{
      output: Record<string, unknown>[];
    }>;

  it('calls an offered function tool as a function_call item, then answers with a message', async () => {
    const first = await create(`${ASK} args={"q":"x"}`, [fnTool(TARGET)]);
    expect(first.output[0]).toMatchObject({ type: 'function_call', name: TARGET, arguments: '{"q":"x"}' });
    const callId = String(first.output[0]!.call_id);
    const second = await create(
      [
        { role: 'user', content: ASK },
        first.output[0],
        { type: 'function_call_output', call_id: callId, output: 'FAKE_TOOL_OK done' },
      ],
      [fnTool(TARGET)],
    );
    expect(second.output[0]).toMatchObject({
      type: 'message',
      content: [{ type: 'output_text', text: expect.stringContaining('FAKE_TOOL_OK done') }],
    });
  });

  it('client tool search: a deferred target is searched with a tool_search_call, and called once a tool_search_output loaded it', async () => {
    const search = {
      type: 'tool_search',
      execution: 'client',
      parameters: { type: 'object', properties: { query: { type: 'string' } } },
    };
    const ask = `${ASK} query="find the target"`;
    const first = await create(ask, [search, fnTool(TARGET, true)]);
    expect(first.output[0]).toMatchObject({
      type: 'tool_search_call',
      execution: 'client',
      arguments: { query: 'find the target' },
    });
    const loaded = {
      type: 'tool_search_output',
      call_id: first.output[0]!.call_id,
      execution: 'client',
      status: 'completed',
      tools: [fnTool(TARGET, true)],
    };
    const second = await create(
      [{ role: 'user', content: ask }, first.output[0], loaded],
      [search, fnTool(TARGET, true)],
    );
    expect(second.output[0]).toMatchObject({ type: 'function_call', name: TARGET });
  });

  it('refuses a body without input', async () => {
    await expect(client.responses.create({ model: 'mock-tool-search' } as never)).rejects.toMatchObject({
      status: 400,
    });
  });
});
