import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createToolSearch } from '@tool-search/ai-sdk';

// Issue 44 item 4, a call before the load: the AI SDK's own loop (generateText, its OpenAI provider over HTTP to the
// scripted mock, `early=1`) calls a deferred catalog tool no search loaded. With `repairToolCall` it gets the tool's
// schema and a hint instead of the AI SDK's unavailable-tool error, the next step offers the tool, and the call runs.
// In tools mode the answer names the tool_call to make, and the model's next tool_call runs the tool.
describe('AI SDK: a call before the load (deferred mode, then tools mode)', () => {
  let mock: MockOpenAI;
  beforeAll(async () => {
    mock = await startMockOpenAI();
  });
  afterAll(() => mock.close());
  const model = () => createOpenAI({ baseURL: mock.url, apiKey: 'test' }).chat('mock-tool-search');
  const config = { plugins: { 'fake-catalog': { tools: 30 } }, tools: { deny: ['write'] } };
  const prompt = (target: string) => `tool search qa check target=${target} args={"path":"a.txt"} early=1`;
  type ChatBody = { tools?: { function: { name: string } }[]; messages: { role: string; content?: unknown }[] };
  const bodies = (from: number) => mock.requests.slice(from).map((r) => r.body as ChatBody);
  const names = (body: ChatBody) => (body.tools ?? []).map((t) => t.function.name);
  const lastTool = (body: ChatBody) => String(body.messages.findLast((m) => m.role === 'tool')?.content);

  it('answers with the schema, loads the tool for the next step, and the next call runs through the run', async () => {
    const search = await createToolSearch({ config });
    const from = mock.requests.length;
    try {
      const { text, steps } = await generateText({
        model: model(),
        tools: search.tools,
        repairToolCall: search.repairToolCall,
        prompt: prompt('read'),
        stopWhen: isStepCount(5),
      });
      expect(text).toContain('read answered: FAKE_TOOL_OK read');
      // The early call became a load of exactly that tool; then the tool itself ran.
      expect(steps.flatMap((step) => step.toolCalls.map((call) => [call.toolName, call.input]))).toEqual([
        ['tool_search', { query: 'read' }],
        ['read', { path: 'a.txt' }],
      ]);
      const sent = bodies(from);
      expect(sent).toHaveLength(3);
      expect(names(sent[0]!)).not.toContain('read');
      const [hint, schema] = lastTool(sent[1]!).split('\n');
      expect(hint).toBe(
        'Error TOOL_NOT_LOADED: read was not loaded; its schema is below; call it again with these arguments.',
      );
      expect(JSON.parse(schema!)).toEqual(search.run.tool('read')!.inputSchema);
      expect(names(sent[1]!)).toContain('read');
    } finally {
      await search.close();
    }
  });

  it('without repairToolCall, the AI SDK answers as before (its unavailable-tool error), nothing loads', async () => {
    const search = await createToolSearch({ config });
    const from = mock.requests.length;
    try {
      await generateText({ model: model(), tools: search.tools, prompt: prompt('read'), stopWhen: isStepCount(2) });
      const sent = bodies(from);
      expect(lastTool(sent[1]!)).not.toContain('TOOL_NOT_LOADED');
      expect(names(sent[1]!)).not.toContain('read');
    } finally {
      await search.close();
    }
  });

  it('a denied tool answers exactly like a tool that does not exist: no schema, never loaded', async () => {
    const search = await createToolSearch({ config });
    const answer = async (target: string) => {
      const from = mock.requests.length;
      await generateText({
        model: model(),
        tools: search.tools,
        repairToolCall: search.repairToolCall,
        prompt: prompt(target),
        stopWhen: isStepCount(2),
      });
      const sent = bodies(from);
      for (const body of sent) expect(names(body)).not.toContain(target);
      return lastTool(sent[1]!).replaceAll(target, '<name>');
    };
    try {
      const denied = await answer('write');
      expect(denied).toBe(await answer('wrote'));
      expect(denied).not.toMatch(/TOOL_NOT_LOADED|properties/);
    } finally {
      await search.close();
    }
  });

  describe('tools mode (tool_search / tool_describe / tool_call)', () => {
    it('answers with the schema and the tool_call to make, runs nothing, and the next tool_call runs', async () => {
      const search = await createToolSearch({ config, mode: 'tools' });
      const from = mock.requests.length;
      const id = search.run.tool('read')!.id;
      try {
        const { text, steps } = await generateText({
          model: model(),
          tools: search.tools,
          repairToolCall: search.repairToolCall,
          prompt: prompt('read'),
          stopWhen: isStepCount(5),
        });
        expect(text).toContain('read answered: FAKE_TOOL_OK read');
        // The early call became a tool_describe that answered without running; the hinted tool_call ran the tool.
        expect(steps.flatMap((step) => step.toolCalls.map((call) => [call.toolName, call.input]))).toEqual([
          ['tool_describe', { id: 'read' }],
          ['tool_call', { id, args: { path: 'a.txt' } }],
        ]);
        const sent = bodies(from);
        expect(sent).toHaveLength(3);
        const [hint, schema] = lastTool(sent[1]!).split('\n');
        expect(hint).toBe(
          `Error TOOL_NOT_LOADED: read was not loaded; its schema is below; call it through tool_call as {"id":${JSON.stringify(id)},"args":{...}}.`,
        );
        expect(JSON.parse(schema!)).toEqual(search.run.tool('read')!.inputSchema);
        expect(lastTool(sent[2]!)).toContain('FAKE_TOOL_OK read');
        // The early call ran nothing, not even a describe: its output is the answer itself.
        expect(steps[0]!.toolResults[0]!.output).toMatchObject({
          isError: true,
          structuredContent: { error: { code: 'TOOL_NOT_LOADED', name: 'read', id } },
        });
      } finally {
        await search.close();
      }
    });

    it('without repairToolCall, the AI SDK answers as before (its unavailable-tool error)', async () => {
      const search = await createToolSearch({ config, mode: 'tools' });
      const from = mock.requests.length;
      try {
        await generateText({ model: model(), tools: search.tools, prompt: prompt('read'), stopWhen: isStepCount(2) });
        expect(lastTool(bodies(from)[1]!)).not.toContain('TOOL_NOT_LOADED');
      } finally {
        await search.close();
      }
    });

    it('a denied tool answers exactly like a tool that does not exist: no schema, no hint', async () => {
      const search = await createToolSearch({ config, mode: 'tools' });
      const answer = async (target: string) => {
        const from = mock.requests.length;
        await generateText({
          model: model(),
          tools: search.tools,
          repairToolCall: search.repairToolCall,
          prompt: prompt(target),
          stopWhen: isStepCount(2),
        });
        return lastTool(bodies(from)[1]!).replaceAll(target, '<name>');
      };
      try {
        const denied = await answer('write');
        expect(denied).toBe(await answer('wrote'));
        expect(denied).not.toMatch(/TOOL_NOT_LOADED|properties|tool_call as/);
      } finally {
        await search.close();
      }
    });
  });
});
