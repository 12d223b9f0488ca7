import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';

let mock: MockOpenAI;
let client: OpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
  client = new OpenAI({ baseURL: mock.url, apiKey: 'test', maxRetries: 0 });
});
afterAll(() => mock.close());

// A long stable start (a system prompt of ~2,500 tokens at the mock's 4 characters a token), then the question.
const system = { role: 'system' as const, content: `You answer questions. ${'Rules of the house. '.repeat(500)}` };
const ask = (text: string) => ({ role: 'user' as const, content: text });

describe('the prompt cache, as OpenAI documents it', () => {
  it('Chat Completions: a repeated prefix of 1,024 tokens or more comes back as cached_tokens, in 128-token steps', async () => {
    const first = await client.chat.completions.create({ model: 'm', messages: [system, ask('first question')] });
    expect(first.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    const second = await client.chat.completions.create({ model: 'm', messages: [system, ask('second question')] });
    const cached = second.usage!.prompt_tokens_details!.cached_tokens!;
    expect(cached).toBeGreaterThanOrEqual(1024);
    expect(cached % 128).toBe(0);
    expect(cached).toBeLessThan(second.usage!.prompt_tokens);
  });

  it('Chat Completions: a short prompt is never cached, nor one that differs from its first message', async () => {
    await client.chat.completions.create({ model: 'm', messages: [ask('short')] });
    const short = await client.chat.completions.create({ model: 'm', messages: [ask('short')] });
    expect(short.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    const other = { ...system, content: `Other. ${system.content}` };
    const changed = await client.chat.completions.create({ model: 'm', messages: [other, ask('first question')] });
    expect(changed.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
  });

  it('Responses: the same, as usage.input_tokens_details.cached_tokens', async () => {
    const instructions = system.content;
    await client.responses.create({ model: 'm', instructions, input: 'one' });
    const again = await client.responses.create({ model: 'm', instructions, input: 'two' });
    expect(again.usage!.input_tokens_details.cached_tokens).toBeGreaterThanOrEqual(1024);
    expect(again.usage!.input_tokens_details.cached_tokens % 128).toBe(0);
    expect(again.usage!.input_tokens).toBeGreaterThan(again.usage!.input_tokens_details.cached_tokens);
  });
});
