import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { startMockAnthropic, type MockAnthropic } from '@tool-search/mock-anthropic';

let mock: MockAnthropic;
let client: Anthropic;
beforeAll(async () => {
  mock = await startMockAnthropic();
  client = new Anthropic({ baseURL: mock.url, apiKey: 'test', maxRetries: 0 });
});
afterAll(() => mock.close());

const script = 'tool search qa check target=fake_plugin_tool_0017 args={"q":"x"}';
const target = {
  name: 'fake_plugin_tool_0017',
  description: 'a fake tool',
  input_schema: { type: 'object' as const, properties: { q: { type: 'string' } } },
};

describe('mock Anthropic Messages API', () => {
  it('calls an offered target directly with the scripted args (tool_use)', async () => {
    const message = await client.messages.create({
      model: 'mock-claude',
      max_tokens: 256,
      messages: [{ role: 'user', content: script }],
      tools: [target],
    });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content[0]).toMatchObject({ type: 'tool_use', name: 'fake_plugin_tool_0017', input: { q: 'x' } });
    expect(mock.requests.at(-1)?.step).toMatchObject({ kind: 'tool-call', lane: 'direct' });
  });

  it('answers quoting the tool_result once the target ran', async () => {
    const first = await client.messages.create({
      model: 'mock-claude',
      max_tokens: 256,
      messages: [{ role: 'user', content: script }],
      tools: [target],
    });
    const use = first.content.find((b) => b.type === 'tool_use')!;
    const second = await client.messages.create({
      model: 'mock-claude',
      max_tokens: 256,
      tools: [target],
      messages: [
        { role: 'user', content: script },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: use.type === 'tool_use' ? use.id : '',
              content: 'FAKE_TOOL_OK fake_plugin_tool_0017 {"q":"x"}',
            },
          ],
        },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content[0]).toMatchObject({ type: 'text' });
    expect(second.content[0]?.type === 'text' && second.content[0].text).toContain('FAKE_TOOL_OK');
  });

  it('searches first when offered tool_search and tool_call, reading the system text for a directory', async () => {
    const search = {
      name: 'tool_search',
      input_schema: { type: 'object' as const, properties: { query: { type: 'string' } } },
    };
    const call = {
      name: 'tool_call',
      input_schema: { type: 'object' as const, properties: { id: { type: 'string' }, args: { type: 'object' } } },
    };
    const message = await client.messages.create({
      model: 'mock-claude',
      max_tokens: 256,
      messages: [{ role: 'user', content: script }],
      tools: [search, call],
    });
    expect(message.content[0]).toMatchObject({ type: 'tool_use', name: 'tool_search' });
    const directory = await client.messages.create({
      model: 'mock-claude',
      max_tokens: 256,
      system: 'Tools you can call by name: fake_plugin_tool_0017 (a fake tool)',
      messages: [{ role: 'user', content: script }],
      tools: [search, call],
    });
    expect(directory.content[0]).toMatchObject({ type: 'tool_use', name: 'fake_plugin_tool_0017' });
  });

  it('streams the same step as Anthropic events', async () => {
    const stream = client.messages.stream({
      model: 'mock-claude',
      max_tokens: 256,
      messages: [{ role: 'user', content: script }],
      tools: [target],
    });
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'tool_use', input: { q: 'x' } });
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
  });

  it('answers bad bodies and unknown routes in the Anthropic error shape', async () => {
    const bad = await fetch(`${mock.url}/v1/messages`, { method: 'POST', body: '{"messages":[]}' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    await expect(client.models.list()).resolves.toBeTruthy();
    const missing = await fetch(`${mock.url}/v1/nothing`);
    expect(missing.status).toBe(404);
  });
});

describe('bounded recording', () => {
  it('keeps only the newest maxRequests and counts all', async () => {
    const bounded = await startMockAnthropic({ record: { maxRequests: 3 } });
    try {
      const c = new Anthropic({ baseURL: bounded.url, apiKey: 'test', maxRetries: 0 });
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          c.messages.create({ model: 'mock-claude', max_tokens: 16, messages: [{ role: 'user', content: `hi ${i}` }] }),
        ),
      );
      expect(bounded.received).toBe(12);
      expect(bounded.requests).toHaveLength(3);
    } finally {
      await bounded.close();
    }
  });
});
