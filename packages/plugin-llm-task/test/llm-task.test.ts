/**
 * llm-task against a provider on loopback speaking OpenAI's Chat Completions wire format (POST /v1/chat/completions,
 * a `chat.completion` object back): each test queues the provider's answers and reads the requests it got.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type Kernel, type ToolCallOutcome } from '@tool-search/kernel';
import { startMockAnthropic } from '@tool-search/mock-anthropic';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { llmTaskPlugin, LlmTaskErrors } from '../src/index.js';
import { unfenced } from '../src/plugin.js';

interface Provider {
  url: string;
  requests: { model: string; messages: { role: string; content: string }[] }[];
  close(): Promise<void>;
}

/** A Chat Completions endpoint answering `answers` in order. */
async function provider(answers: string[]): Promise<Provider> {
  const requests: Provider['requests'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const request = JSON.parse(body) as Provider['requests'][number];
      requests.push(request);
      const content = answers.shift() ?? '';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: 0,
          model: request.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0)) await close();
});

async function task(
  answers: string[],
  args: Record<string, unknown>,
): Promise<{ outcome: ToolCallOutcome; requests: Provider['requests'] }> {
  const llm = await provider(answers);
  const kernel: Kernel = createKernel({
    plugins: [llmTaskPlugin({ baseURL: llm.url, model: 'test-model', apiKey: 'k' })],
  });
  cleanup.push(
    () => llm.close(),
    () => kernel.close(),
  );
  const run = await kernel.createRun({});
  try {
    return { outcome: await run.call('llm-task', args), requests: llm.requests };
  } finally {
    await run.close();
  }
}

const SCHEMA = {
  type: 'object',
  properties: { sentiment: { enum: ['positive', 'negative'] } },
  required: ['sentiment'],
  additionalProperties: false,
};

describe('llm-task', () => {
  it('returns the valid JSON answer, validated against the schema, in one request', async () => {
    const { outcome, requests } = await task(['{"sentiment":"positive"}'], {
      prompt: 'Classify the review',
      input: { review: 'Great!' },
      schema: SCHEMA,
    });
    expect(outcome.status).toBe('ok');
    expect(outcome.status === 'ok' && outcome.result.structuredContent).toEqual({
      json: { sentiment: 'positive' },
      model: 'test-model',
      attempts: 1,
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.model).toBe('test-model');
    expect(requests[0]!.messages[1]!.content).toContain('"review":"Great!"');
    expect(requests[0]!.messages[1]!.content).toContain('"required":["sentiment"]');
  });

  it('retries once on invalid JSON, then returns the valid answer', async () => {
    const { outcome, requests } = await task(
      ['Sure! The sentiment is positive.', '```json\n{"sentiment":"negative"}\n```'],
      { prompt: 'Classify', input: 'meh', schema: SCHEMA },
    );
    expect(outcome.status === 'ok' && outcome.result.structuredContent).toEqual({
      json: { sentiment: 'negative' },
      model: 'test-model',
      attempts: 2,
    });
    expect(requests).toHaveLength(2);
    expect(requests[1]!.messages.at(-1)!.content).toMatch(/not valid: not JSON/);
  });

  it('JSON that breaks the schema counts as invalid too', async () => {
    const { outcome } = await task(['{"sentiment":"neutral"}', '{"sentiment":"positive"}'], {
      prompt: 'Classify',
      schema: SCHEMA,
    });
    expect(outcome.status === 'ok' && outcome.result.structuredContent).toMatchObject({ attempts: 2 });
  });

  it('invalid twice is LLM_TASK_INVALID_OUTPUT, after exactly two requests', async () => {
    const { outcome, requests } = await task(['nope', '{"sentiment":"maybe"}', '{"sentiment":"positive"}'], {
      prompt: 'Classify',
      schema: SCHEMA,
    });
    expect(outcome.status === 'error' && outcome.error.code).toBe(LlmTaskErrors.LLM_TASK_INVALID_OUTPUT);
    expect(requests).toHaveLength(2);
  });

  it('a schema that does not compile is refused before the provider is asked', async () => {
    const { outcome, requests } = await task(['{}'], { prompt: 'x', schema: { type: 'not-a-type' } });
    expect(outcome.status === 'error' && outcome.error.code).toBe(LlmTaskErrors.LLM_TASK_SCHEMA_INVALID);
    expect(requests).toHaveLength(0);
  });

  // Issue #40, item 9: the schema comes from a client and the value it checks from a model. On a backtracking
  // RegExp, `^(a+)+$` against 40 `a`s and a `!` takes 2^40 steps (5–7 s at 28 characters, doubling with each one):
  // the test would time out. On the linear-time engine it answers at once.
  it.each([
    ['pattern', { type: 'string', pattern: '^(a+)+$' }],
    ['patternProperties', { type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } }],
  ])('a catastrophic %s checks a model answer in linear time', async (_keyword, schema) => {
    const evil = `${'a'.repeat(40)}!`;
    const answer = schema.type === 'string' ? JSON.stringify(evil) : JSON.stringify({ [`${'a'.repeat(40)}`]: 'x' });
    const wrong = schema.type === 'string' ? JSON.stringify(evil) : JSON.stringify({ [evil]: 1, aaaa: 'x' });
    const { outcome } = await task([wrong, answer], { prompt: 'x', schema });
    expect(outcome.status === 'error' && outcome.error.code).toBe(LlmTaskErrors.LLM_TASK_INVALID_OUTPUT);
    const fits = schema.type === 'string' ? JSON.stringify('a'.repeat(40)) : JSON.stringify({ [evil]: 'x', aa: 1 });
    const { outcome: ok } = await task([fits], { prompt: 'x', schema });
    expect(ok.status).toBe('ok');
  });

  // The answer's Markdown fence was cut with `^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$`, which backtracks: a model
  // answering a fence and 5,000 spaces froze the loop 14 s (cubic: 8,000 take about a minute, twice with the retry).
  // The test would time out; read with string operations it answers at once.
  it('an answer of a fence and 8,000 spaces is refused without freezing the loop', async () => {
    const hostile = `\`\`\`${' '.repeat(8000)}x`;
    const { outcome } = await task([hostile, `${hostile}\`\``], { prompt: 'x', schema: SCHEMA });
    expect(outcome.status === 'error' && outcome.error.code).toBe(LlmTaskErrors.LLM_TASK_INVALID_OUTPUT);
  }, 20_000);

  it.each([
    ['```json\n{"a":1}\n```', '{"a":1}'],
    ['  ```\n[1]\n```  ', '[1]'],
    ['```json```', ''],
    ['``````', ''],
    ['`````', '`````'],
    ['{"a":"```"}', '{"a":"```"}'],
    ['```jsonfoo```', 'foo'],
  ])('unfenced(%j) is %j', (text, expected) => {
    expect(unfenced(text)).toBe(expected);
  });

  it('a provider that does not answer is LLM_TASK_PROVIDER_FAILED', async () => {
    const kernel = createKernel({
      plugins: [llmTaskPlugin({ baseURL: 'http://127.0.0.1:1/v1', model: 'm', apiKey: 'k' })],
    });
    cleanup.push(() => kernel.close());
    const run = await kernel.createRun({});
    const outcome = await run.call('llm-task', { prompt: 'x' });
    await run.close();
    expect(outcome.status === 'error' && outcome.error.code).toBe(LlmTaskErrors.LLM_TASK_PROVIDER_FAILED);
  });
});

describe('llm-task through the host provider (wants: ["provider"])', () => {
  const run = async (plugin: ReturnType<typeof llmTaskPlugin>, args: Record<string, unknown>) => {
    const kernel = createKernel({ plugins: [plugin] });
    cleanup.push(() => kernel.close());
    const r = await kernel.createRun({});
    try {
      return await r.call('llm-task', args);
    } finally {
      await r.close();
    }
  };

  it('an Anthropic provider answers over the Messages API (system apart, key from apiKeyEnv)', async () => {
    const mock = await startMockAnthropic();
    cleanup.push(() => mock.close());
    const plugin = llmTaskPlugin(
      {},
      {
        provider: { kind: 'anthropic', baseURL: mock.url, model: 'claude-main', apiKeyEnv: 'MY_KEY' },
        env: { MY_KEY: 'sk-ant-main' },
      },
    );
    const outcome = await run(plugin, {
      prompt: 'tool search qa always say {"sentiment":"positive"}',
      input: 'Great!',
      schema: SCHEMA,
    });
    expect(outcome.status === 'ok' && outcome.result.structuredContent).toEqual({
      json: { sentiment: 'positive' },
      model: 'claude-main',
      attempts: 1,
    });
    const request = mock.requests.at(-1)!;
    expect(request.path).toBe('/v1/messages');
    expect(JSON.stringify(request.headers)).toContain('sk-ant-main');
    expect(request.body).toMatchObject({
      model: 'claude-main',
      system: expect.stringContaining('JSON-only'),
      messages: [{ role: 'user' }],
    });
  });

  it('its own options win: an own baseURL brings its own kind, model and key', async () => {
    const own = await startMockOpenAI();
    cleanup.push(() => own.close());
    const plugin = llmTaskPlugin(
      { baseURL: own.url, model: 'own-model', apiKey: 'sk-own' },
      { provider: { kind: 'anthropic', baseURL: 'http://127.0.0.1:1', model: 'claude-main', apiKey: 'sk-ant' } },
    );
    const outcome = await run(plugin, { prompt: 'tool search qa always say [1]', input: null });
    expect(outcome.status === 'ok' && outcome.result.structuredContent).toMatchObject({
      json: [1],
      model: 'own-model',
    });
    expect(own.requests.map((r) => [r.path, (r.body as { model: string }).model, r.headers.authorization])).toEqual([
      ['/v1/chat/completions', 'own-model', 'Bearer sk-own'],
    ]);
  });

  it('without a provider or options of its own the factory says what to set (OPTIONS_INVALID)', () => {
    expect(() => llmTaskPlugin({})).toThrow(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID, details: { missing: ['baseURL', 'model'] } }),
    );
  });
});
