import { Agent, ModelBehaviorError, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createToolSearch, type ToolSearchTools } from '@tool-search/openai-agents';

setTracingDisabled(true); // no trace export to a hosted service from tests

// Issue 44 item 4, a call before the load: the Agents SDK's runner (Chat Completions over HTTP to the scripted mock,
// `early=1`) calls a deferred catalog tool no search enabled. By default the SDK ends the run (ModelBehaviorError; the
// SDK closed this as won't-fix); with `runOptions` the model reads the tool's schema, the tool is enabled for the
// next turn, and the call runs. In tools mode the answer names the tool_call to make, and that tool_call runs.
describe('OpenAI Agents SDK: a call before the load (deferred mode, then tools mode)', () => {
  let mock: MockOpenAI;
  let runner: Runner;
  beforeAll(async () => {
    mock = await startMockOpenAI();
    runner = new Runner({
      modelProvider: new OpenAIProvider({ apiKey: 'test', baseURL: mock.url, useResponses: false }),
      tracingDisabled: true,
    });
  });
  afterAll(() => mock.close());
  const config = { plugins: { 'fake-catalog': { tools: 30 } }, tools: { deny: ['write'] } };
  const prompt = (target: string) => `tool search qa check target=${target} args={"path":"a.txt"} early=1`;
  const agentWith = (search: ToolSearchTools) =>
    new Agent({ name: 'assistant', instructions: 'Use tools.', model: 'mock-tool-search', tools: search.tools });
  type ChatBody = { tools?: { function: { name: string } }[]; messages: { role: string; content?: unknown }[] };
  const bodies = (from: number) => mock.requests.slice(from).map((r) => r.body as ChatBody);
  const names = (body: ChatBody) => (body.tools ?? []).map((t) => t.function.name);
  const lastTool = (body: ChatBody) => String(body.messages.findLast((m) => m.role === 'tool')?.content);

  it('without runOptions the SDK ends the run (the behaviour this fixes)', async () => {
    const search = await createToolSearch({ config });
    try {
      await expect(runner.run(agentWith(search), prompt('read'), { maxTurns: 4 })).rejects.toBeInstanceOf(
        ModelBehaviorError,
      );
    } finally {
      await search.close();
    }
  });

  it('with runOptions: the schema and a hint, the tool enabled for the next turn, and the next call runs', async () => {
    const search = await createToolSearch({ config });
    const from = mock.requests.length;
    try {
      const result = await runner.run(agentWith(search), prompt('read'), { maxTurns: 5, ...search.runOptions });
      expect(String(result.finalOutput)).toContain('read answered: FAKE_TOOL_OK read');
      const sent = bodies(from);
      expect(sent).toHaveLength(3);
      expect(names(sent[0]!)).not.toContain('read');
      const [hint, schema] = lastTool(sent[1]!).split('\n');
      expect(hint).toBe(
        'Error TOOL_NOT_LOADED: read was not loaded; its schema is below; call it again with these arguments.',
      );
      expect(JSON.parse(schema!)).toEqual(search.run.tool('read')!.inputSchema);
      expect(names(sent[1]!)).toContain('read');
      expect(lastTool(sent[2]!)).toContain('FAKE_TOOL_OK read');
      // Enabled for that SDK run only: a fresh run starts without it.
      const before = mock.requests.length;
      await runner.run(agentWith(search), 'hello', { maxTurns: 2, ...search.runOptions });
      expect(names(bodies(before)[0]!)).not.toContain('read');
    } finally {
      await search.close();
    }
  });

  it('a denied tool answers exactly like a tool that does not exist: no schema, never enabled', async () => {
    const search = await createToolSearch({ config });
    const answer = async (target: string) => {
      const from = mock.requests.length;
      await runner.run(agentWith(search), prompt(target), { maxTurns: 2, ...search.runOptions }).catch((error) => {
        // maxTurns ends the run after the answer was sent: what the model read is in the recorded request.
        if (!String(error).includes('Max turns')) throw error;
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
    const callsOf = (items: readonly { type: string; rawItem: unknown }[]) =>
      items.flatMap((item) => {
        const raw = item.rawItem as { name?: string; arguments?: string };
        return item.type === 'tool_call_item' ? [[raw.name, JSON.parse(raw.arguments ?? '{}')]] : [];
      });

    it('without runOptions the SDK ends the run', async () => {
      const search = await createToolSearch({ config, mode: 'tools' });
      try {
        await expect(runner.run(agentWith(search), prompt('read'), { maxTurns: 4 })).rejects.toBeInstanceOf(
          ModelBehaviorError,
        );
      } finally {
        await search.close();
      }
    });

    it('with runOptions: the schema and the tool_call to make, and that tool_call runs', async () => {
      const search = await createToolSearch({ config, mode: 'tools' });
      const from = mock.requests.length;
      const id = search.run.tool('read')!.id;
      try {
        const result = await runner.run(agentWith(search), prompt('read'), { maxTurns: 5, ...search.runOptions });
        expect(String(result.finalOutput)).toContain('read answered: FAKE_TOOL_OK read');
        expect(callsOf(result.newItems)).toEqual([
          ['read', { path: 'a.txt' }],
          ['tool_call', { id, args: { path: 'a.txt' } }],
        ]);
        const sent = bodies(from);
        expect(sent).toHaveLength(3);
        const [hint, schema] = lastTool(sent[1]!).split('\n');
        expect(hint).toBe(
          `Error TOOL_NOT_LOADED: read was not loaded; its schema is below; call it through tool_call as {"id":${JSON.stringify(id)},"args":{...}}.`,
        );
        expect(JSON.parse(schema!)).toEqual(search.run.tool('read')!.inputSchema);
        // Reached through tool_call: the tools offered stay the control tools.
        expect(names(sent[1]!)).toEqual(names(sent[0]!));
        expect(lastTool(sent[2]!)).toContain('FAKE_TOOL_OK read');
      } finally {
        await search.close();
      }
    });

    it('a denied tool answers exactly like a tool that does not exist: no schema, no hint', async () => {
      const search = await createToolSearch({ config, mode: 'tools' });
      const answer = async (target: string) => {
        const from = mock.requests.length;
        await runner.run(agentWith(search), prompt(target), { maxTurns: 2, ...search.runOptions }).catch((error) => {
          // maxTurns ends the run after the answer was sent: what the model read is in the recorded request.
          if (!String(error).includes('Max turns')) throw error;
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
