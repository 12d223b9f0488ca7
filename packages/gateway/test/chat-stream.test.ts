import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ask, harness, slowTool, until, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('streaming chat completions', () => {
  it('streams a tools-mode turn: role first, the answer as content deltas, finish_reason, then usage', async () => {
    const { client } = await h.gateway('tools');
    const stream = await client.chat.completions.create({
      model: 'mock-model',
      messages: ask('fake_plugin_tool_0005'),
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = await collect(stream);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toContain('FAKE_TOOL_OK fake_plugin_tool_0005');
    const finishes = chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean);
    expect(finishes).toEqual(['stop']);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('sends no usage chunk without stream_options.include_usage', async () => {
    const { client } = await h.gateway('direct');
    const chunks = await collect(
      await client.chat.completions.create({
        model: 'mock-model',
        messages: ask('fake_plugin_tool_0003'),
        stream: true,
      }),
    );
    expect(chunks.some((c) => c.usage)).toBe(false);
  });

  it('works with the client stream helper (finalChatCompletion)', async () => {
    const { client } = await h.gateway('directory');
    const runner = client.chat.completions.stream({ model: 'mock-model', messages: ask('fake_plugin_tool_0005') });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]?.message.content).toContain('FAKE_TOOL_OK fake_plugin_tool_0005');
  });

  it('streams a client tool call as tool_calls deltas, then finishes with the client result', async () => {
    const { client } = await h.gateway('tools');
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'client_lookup',
          description: 'Looks up on the client',
          parameters: { type: 'object', properties: {} },
        },
      },
    ];
    const runner = client.chat.completions.stream({ model: 'mock-model', messages: ask('client_lookup'), tools });
    const first = await runner.finalChatCompletion();
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.name).toBe('client_lookup');
    const second = await client.chat.completions.create({
      model: 'mock-model',
      stream: true,
      tools,
      messages: [
        ...ask('client_lookup'),
        { role: 'assistant', content: null, tool_calls: choice.message.tool_calls ?? [] },
        { role: 'tool', tool_call_id: call!.id, content: 'FAKE_TOOL_OK client_lookup {}' },
      ],
    });
    const text = (await collect(second)).map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toContain('FAKE_TOOL_OK client_lookup');
  });

  it('aborts the turn and its running tool call when the client disconnects mid-stream', async () => {
    const seen = { started: 0, aborted: 0 };
    const { client } = await h.gateway('direct', { plugins: [slowTool(seen)] });
    const stream = await client.chat.completions.create({
      model: 'mock-model',
      messages: ask('slow_tool'),
      stream: true,
    });
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value?.choices[0]?.delta.role).toBe('assistant');
    await until(() => seen.started === 1);
    stream.controller.abort();
    await until(() => seen.aborted === 1);
    expect(seen).toEqual({ started: 1, aborted: 1 });
  });

  it('reports an error inside the stream as an API error for the client', async () => {
    const { client } = await h.gateway('tools');
    const tools = [{ type: 'function' as const, function: { name: 'read', parameters: { type: 'object' } } }];
    const stream = await client.chat.completions.create({
      model: 'mock-model',
      messages: ask('read'),
      tools,
      stream: true,
    });
    await expect(collect(stream)).rejects.toMatchObject({ code: 'CLIENT_TOOL_COLLISION' });
  });
});
