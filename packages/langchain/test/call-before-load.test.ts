import { ChatOpenAI } from '@langchain/openai';
import { ToolMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createToolSearch, type ToolSearchMiddleware } from '@tool-search/langchain';

// Issue 44 item 4, a call before the load: LangChain's createAgent (ChatOpenAI over HTTP to the scripted mock,
// `early=1`) calls a deferred catalog tool the middleware never showed. Nothing runs: the model reads the tool's schema
// and a hint, the middleware shows the tool from the next model call, and the next call runs through the run. In tools
// mode (the middleware's wrapToolCall) the answer names the tool_call to make, and that tool_call runs.
describe('LangChain: a call before the load (deferred mode, then tools mode)', () => {
  let mock: MockOpenAI;
  beforeAll(async () => {
    mock = await startMockOpenAI();
  });
  afterAll(() => mock.close());
  const config = { plugins: { 'fake-catalog': { tools: 30 } }, tools: { deny: ['write'] } };
  const prompt = (target: string) => `tool search qa check target=${target} args={"path":"a.txt"} early=1`;
  const agentWith = (search: ToolSearchMiddleware) =>
    createAgent({
      model: new ChatOpenAI({
        model: 'mock-tool-search',
        apiKey: 'test',
        configuration: { baseURL: mock.url },
        useResponsesApi: false,
        maxRetries: 0,
      }),
      middleware: [search.middleware],
    });
  const ask = async (search: ToolSearchMiddleware, content: string) =>
    (await agentWith(search).invoke({ messages: [{ role: 'user', content }] }, { recursionLimit: 12 })).messages;
  type ChatBody = { tools?: { function: { name: string } }[] };
  const names = (body: ChatBody) => (body.tools ?? []).map((t) => t.function.name);
  const toolMessages = (messages: readonly unknown[]) => messages.filter((m) => ToolMessage.isInstance(m));

  it('answers with the schema, runs nothing, shows the tool next, and the next call runs', async () => {
    const search = await createToolSearch({ config });
    const from = mock.requests.length;
    try {
      const messages = await ask(search, prompt('read'));
      const [early, call] = toolMessages(messages);
      expect(early).toMatchObject({ name: 'read', status: 'error', artifact: { loaded: 'read' } });
      const [hint, schema] = String(early!.content).split('\n');
      expect(hint).toBe(
        'Error TOOL_NOT_LOADED: read was not loaded; its schema is below; call it again with these arguments.',
      );
      expect(JSON.parse(schema!)).toEqual(search.run.tool('read')!.inputSchema);
      expect(String(call!.content)).toContain('FAKE_TOOL_OK read');
      expect(String(messages.at(-1)!.content)).toContain('read answered: FAKE_TOOL_OK read');
      const sent = mock.requests.slice(from).map((r) => r.body as ChatBody);
      expect(sent).toHaveLength(3);
      expect(names(sent[0]!)).not.toContain('read');
      expect(names(sent[1]!)).toContain('read');
      // The early call ran nothing: the tool answered once, to the call after the load.
      expect(toolMessages(messages)).toHaveLength(2);
      expect(String(early!.content)).not.toContain('FAKE_TOOL_OK');
    } finally {
      await search.close();
    }
  });

  it('a denied tool answers exactly like a tool that does not exist: no schema, never shown', async () => {
    const search = await createToolSearch({ config });
    const answer = async (target: string) => {
      const from = mock.requests.length;
      const messages = await ask(search, prompt(target));
      for (const r of mock.requests.slice(from)) expect(names(r.body as ChatBody)).not.toContain(target);
      return String(toolMessages(messages)[0]?.content).replaceAll(target, '<name>');
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
    it('answers with the schema and the tool_call to make, runs nothing, and that tool_call runs', async () => {
      const search = await createToolSearch({ config, mode: 'tools' });
      const from = mock.requests.length;
      const id = search.run.tool('read')!.id;
      try {
        const messages = await ask(search, prompt('read'));
        const [early, call] = toolMessages(messages);
        expect(early).toMatchObject({ name: 'read', status: 'error' });
        const [hint, schema] = String(early!.content).split('\n');
        expect(hint).toBe(
          `Error TOOL_NOT_LOADED: read was not loaded; its schema is below; call it through tool_call as {"id":${JSON.stringify(id)},"args":{...}}.`,
        );
        expect(JSON.parse(schema!)).toEqual(search.run.tool('read')!.inputSchema);
        expect(call).toMatchObject({ name: 'tool_call' });
        expect(String(call!.content)).toContain('FAKE_TOOL_OK read');
        expect(String(messages.at(-1)!.content)).toContain('read answered: FAKE_TOOL_OK read');
        const sent = mock.requests.slice(from).map((r) => r.body as ChatBody);
        expect(sent).toHaveLength(3);
        // Reached through tool_call: the tools offered stay the control tools; the early call ran nothing.
        expect(names(sent[1]!)).toEqual(names(sent[0]!));
        expect(names(sent[0]!)).not.toContain('read');
        expect(toolMessages(messages)).toHaveLength(2);
      } finally {
        await search.close();
      }
    });

    it('a denied tool answers exactly like a tool that does not exist: no schema, no hint', async () => {
      const search = await createToolSearch({ config, mode: 'tools' });
      const answer = async (target: string) => {
        const messages = await ask(search, prompt(target));
        return String(toolMessages(messages)[0]?.content).replaceAll(target, '<name>');
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
