/**
 * Programmatic tool calling over real HTTP with the official SDK, whose types carry the wire format
 * (`allowed_callers`, `CodeExecutionTool20250825`, `ToolUseBlock.caller`, `container`).
 */
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
const ask: Anthropic.Messages.MessageParam = {
  role: 'user',
  content: `tool search qa check target=${TARGET} args={"q":"x"}`,
};
const tool = (callers?: Anthropic.Messages.Tool['allowed_callers']): Anthropic.Messages.ToolUnion[] => [
  {
    name: TARGET,
    description: 'a fake tool',
    input_schema: { type: 'object', properties: { q: { type: 'string' } } },
    ...(callers ? { allowed_callers: callers } : {}),
  },
  { type: 'code_execution_20250825', name: 'code_execution' },
];

describe('programmatic tool calling (allowed_callers + code_execution_20250825)', () => {
  it('calls from the sandbox, takes the result with the container back, then the program result leads the answer', async () => {
    const tools = tool(['direct', 'code_execution_20250825']);
    const first = await client.messages.create({ model: 'mock-claude', max_tokens: 256, messages: [ask], tools });
    expect(first.stop_reason).toBe('tool_use');
    const code = first.content.find((b) => b.type === 'server_tool_use');
    expect(code).toMatchObject({ name: 'code_execution' });
    const use = first.content.find((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use')!;
    expect(use).toMatchObject({ name: TARGET, input: { q: 'x' } });
    expect(use.caller).toEqual({ type: 'code_execution_20250825', tool_id: code!.id });
    const container = first.container!.id;

    const answer: Anthropic.Messages.MessageParam[] = [
      ask,
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'FAKE_TOOL_OK 42' }] },
    ];
    // As documented: the container goes back, and the answer holds tool_result blocks only.
    await expect(
      client.messages.create({ model: 'mock-claude', max_tokens: 256, messages: answer, tools }),
    ).rejects.toMatchObject({ status: 400 });
    const withText = [
      ...answer.slice(0, 2),
      {
        role: 'user' as const,
        content: [
          { type: 'tool_result' as const, tool_use_id: use.id, content: 'FAKE_TOOL_OK 42' },
          { type: 'text' as const, text: 'and?' },
        ],
      },
    ];
    await expect(
      client.messages.create({ model: 'mock-claude', max_tokens: 256, messages: withText, tools, container }),
    ).rejects.toMatchObject({ status: 400 });

    const second = await client.messages.create({
      model: 'mock-claude',
      max_tokens: 256,
      messages: answer,
      tools,
      container,
    });
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content.map((b) => b.type)).toEqual(['code_execution_tool_result', 'text']);
    expect(second.content[0]).toMatchObject({
      tool_use_id: code!.id,
      content: { type: 'code_execution_result', stdout: 'FAKE_TOOL_OK 42', return_code: 0 },
    });
    expect(second.content[1]).toMatchObject({ text: expect.stringContaining('FAKE_TOOL_OK 42') });
  });

  it('calls directly a tool whose allowed_callers leave the sandbox out', async () => {
    for (const callers of [undefined, ['direct' as const]]) {
      const first = await client.messages.create({
        model: 'mock-claude',
        max_tokens: 256,
        messages: [ask],
        tools: tool(callers),
      });
      expect(first.content.map((b) => b.type)).toEqual(['tool_use']);
      expect((first.content[0] as { caller?: unknown }).caller).toBeUndefined();
      expect(first.container ?? undefined).toBeUndefined();
    }
  });

  it('streams the programmatic call with its caller', async () => {
    const stream = client.messages.stream({
      model: 'mock-claude',
      max_tokens: 256,
      messages: [ask],
      tools: tool(['code_execution_20250825']),
    });
    const message = await stream.finalMessage();
    const use = message.content.find((b) => b.type === 'tool_use');
    const code = message.content[0] as Anthropic.Messages.ServerToolUseBlock;
    expect(code).toMatchObject({ type: 'server_tool_use', name: 'code_execution' });
    expect(use).toMatchObject({ caller: { type: 'code_execution_20250825', tool_id: code.id } });
  });
});
