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

const TARGET = 'fake_plugin_tool_0017';
const ask = `tool search qa check target=${TARGET} args={"q":"x"}`;
const deferred = (name: string, description: string) => ({
  name,
  description,
  input_schema: { type: 'object' as const, properties: { q: { type: 'string' } } },
  defer_loading: true,
});
// Claude-Code-shaped: a few loaded tools, many deferred ones, the bm25 search tool.
const tools = [
  {
    name: 'Read',
    description: 'Read a file',
    input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } },
  },
  { type: 'tool_search_tool_bm25_20251119' as const, name: 'tool_search_tool_bm25' as const },
  ...Array.from({ length: 30 }, (_, i) =>
    deferred(`fake_plugin_tool_${String(i).padStart(4, '0')}`, `fake tool number ${i}`),
  ),
] as Anthropic.Messages.ToolUnion[];

describe('deferred tools (defer_loading + tool search server tool)', () => {
  it('searches server-side, answers with server_tool_use / tool_search_tool_result / tool_reference, then calls the found tool', async () => {
    const first = await client.messages.create({
      model: 'mock-claude',
      max_tokens: 256,
      messages: [{ role: 'user', content: ask }],
      tools,
    });
    expect(first.content.map((b) => b.type)).toEqual(['server_tool_use', 'tool_search_tool_result', 'tool_use']);
    const [use, result, call] = first.content as [
      Anthropic.Messages.ServerToolUseBlock,
      Anthropic.Messages.ToolSearchToolResultBlock,
      Anthropic.Messages.ToolUseBlock,
    ];
    expect(use).toMatchObject({ name: 'tool_search_tool_bm25', input: { query: TARGET } });
    expect(result.tool_use_id).toBe(use.id);
    expect(result.content).toMatchObject({
      type: 'tool_search_tool_search_result',
      tool_references: expect.arrayContaining([{ type: 'tool_reference', tool_name: TARGET }]),
    });
    expect(call).toMatchObject({ name: TARGET, input: { q: 'x' } });
    expect(first.stop_reason).toBe('tool_use');

    const second = await client.messages.create({
      model: 'mock-claude',
      max_tokens: 256,
      tools,
      messages: [
        { role: 'user', content: ask },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'FAKE_TOOL_OK 17' }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: expect.stringContaining('FAKE_TOOL_OK 17') }]);
  });

  it('streams the same blocks to the SDK stream helper', async () => {
    const stream = client.messages.stream({
      model: 'mock-claude',
      max_tokens: 256,
      messages: [{ role: 'user', content: ask }],
      tools,
    });
    const final = await stream.finalMessage();
    expect(final.content.map((b) => b.type)).toEqual(['server_tool_use', 'tool_search_tool_result', 'tool_use']);
    expect(final.content[2]).toMatchObject({ name: TARGET, input: { q: 'x' } });
  });

  it('regex variant: an invalid pattern is a tool_search_tool_result_error, not a crash', async () => {
    const regexTools = tools.map((t) =>
      'type' in t && t.type === 'tool_search_tool_bm25_20251119'
        ? { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }
        : t,
    ) as Anthropic.Messages.ToolUnion[];
    const bad = await client.messages.create({
      model: 'mock-claude',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'tool search qa check target=([' }],
      tools: regexTools,
    });
    expect(bad.content[1]).toMatchObject({
      type: 'tool_search_tool_result',
      content: { type: 'tool_search_tool_result_error', error_code: 'invalid_pattern' },
    });
  });

  it('refuses a request whose tools are all deferred (400)', async () => {
    await expect(
      client.messages.create({
        model: 'mock-claude',
        max_tokens: 256,
        messages: [{ role: 'user', content: ask }],
        tools: [deferred(TARGET, 'x')] as Anthropic.Messages.ToolUnion[],
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
