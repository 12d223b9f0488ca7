import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockAnthropic, type MockAnthropic } from '@tool-search/mock-anthropic';

let requested: MockAnthropic;
let automatic: MockAnthropic;
beforeAll(async () => {
  requested = await startMockAnthropic();
  automatic = await startMockAnthropic({ promptCache: { mode: 'automatic' } });
});
afterAll(async () => {
  await requested.close();
  await automatic.close();
});

const clientOf = (mock: MockAnthropic) => new Anthropic({ baseURL: mock.url, apiKey: 'test', maxRetries: 0 });
// A long stable system prompt (~2,500 tokens at the mock's 4 characters a token), then the question.
const system = `You answer questions. ${'Rules of the house. '.repeat(500)}`;
const ask = (text: string) => [{ role: 'user' as const, content: text }];
const total = (usage: Anthropic.Messages.Usage) =>
  usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);

describe('the prompt cache, as Anthropic documents it', () => {
  it('caches only when the request asks (cache_control): reads the repeated prefix, writes the rest', async () => {
    const client = clientOf(requested);
    const plain = await client.messages.create({ model: 'm', max_tokens: 64, system, messages: ask('one') });
    const plainAgain = await client.messages.create({ model: 'm', max_tokens: 64, system, messages: ask('two') });
    expect(plainAgain.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    expect(plainAgain.usage.input_tokens).toBeGreaterThan(1024);
    expect(plain.usage.cache_read_input_tokens).toBe(0);

    const marked = [{ type: 'text' as const, text: system, cache_control: { type: 'ephemeral' as const } }];
    const write = await client.messages.create({ model: 'm', max_tokens: 64, system: marked, messages: ask('one') });
    expect(write.usage.cache_read_input_tokens).toBe(0);
    expect(write.usage.cache_creation_input_tokens).toBe(total(write.usage));
    const read = await client.messages.create({ model: 'm', max_tokens: 64, system: marked, messages: ask('two') });
    // The tools and the system block are whole blocks in common; the message differs.
    expect(read.usage.cache_read_input_tokens).toBeGreaterThanOrEqual(1024);
    expect(read.usage.cache_read_input_tokens).toBeLessThan(total(read.usage));
    expect(read.usage.cache_creation_input_tokens).toBe(total(read.usage) - read.usage.cache_read_input_tokens!);
  });

  it('a moved breakpoint still reads the earlier prefix (the mark is not part of it); over 4 breakpoints is a 400', async () => {
    const client = clientOf(requested);
    const mark = { cache_control: { type: 'ephemeral' as const } };
    const turn = (texts: string[]) =>
      texts.map((text, i) => ({
        role: i % 2 ? ('assistant' as const) : ('user' as const),
        content: [{ type: 'text' as const, text, ...(i === texts.length - 1 ? mark : {}) }],
      }));
    await client.messages.create({ model: 'm', max_tokens: 64, system, messages: turn(['first question']) });
    const next = await client.messages.create({
      model: 'm',
      max_tokens: 64,
      system,
      messages: turn(['first question', 'an answer', 'second question']),
    });
    // The system text and the first question, though the first question's mark moved to the newest block.
    const shared = JSON.stringify(system) + JSON.stringify(['user', 0, { type: 'text', text: 'first question' }]);
    expect(next.usage.cache_read_input_tokens).toBe(Math.floor(shared.length / 4));

    const blocks = ['a', 'b', 'c', 'd', 'e'].map((text) => ({ type: 'text' as const, text, ...mark }));
    const refused = await client.messages
      .create({ model: 'm', max_tokens: 64, messages: [{ role: 'user', content: blocks }] })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((refused as Error).message)).toContain('A maximum of 4 blocks with cache_control');
  });

  it('`automatic` caches every request; the streamed message_start carries the same usage', async () => {
    const client = clientOf(automatic);
    await client.messages.create({ model: 'm', max_tokens: 64, system, messages: ask('one') });
    const stream = client.messages.stream({ model: 'm', max_tokens: 64, system, messages: ask('two') });
    const message = await stream.finalMessage();
    expect(message.usage.cache_read_input_tokens).toBeGreaterThanOrEqual(1024);
    const short = await client.messages.create({ model: 'm', max_tokens: 64, messages: ask('short') });
    expect(short.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  });
});
