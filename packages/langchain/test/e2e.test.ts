import { ChatOpenAI } from '@langchain/openai';
import { ToolMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createToolSearch, type ToolSearchMiddleware } from '@tool-search/langchain';
import {
  assertDeferredEchoTurn,
  assertDeniedNeverFound,
  demoWithEverything,
  EVERYTHING_DENIED_ID as DENIED_ID,
  logDir,
  sessionLog,
} from '@tool-search/testing';

// Issue 29: LangChain's own agent (createAgent + ChatOpenAI over real HTTP to the scripted mock model) searches with
// Tool Search's ranker through the middleware, finds a real stdio MCP server's tool among the demo catalog, calls it.
describe('LangChain createAgent with the Tool Search middleware', () => {
  let mock: MockOpenAI;
  beforeAll(async () => {
    mock = await startMockOpenAI();
  });
  afterAll(() => mock.close());
  const ECHO =
    'tool search qa check target=echo args={"message":"FAKE_TOOL_OK via LangChain"} query="echo back the message I send"';
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
  const ask = async (search: ToolSearchMiddleware, content: string) => {
    const state = await agentWith(search).invoke({ messages: [{ role: 'user', content }] }, { recursionLimit: 12 });
    return state.messages;
  };
  const lastText = (messages: { content: unknown }[]) => String(messages[messages.length - 1]!.content);

  it('deferred (default): the middleware shows the search tool, then the found MCP tool; the call runs through the run', async () => {
    const dir = logDir();
    const search = await createToolSearch({
      config: demoWithEverything(),
      sessionId: 'lc-deferred',
      sessionLogDir: dir,
    });
    const from = mock.requests.length;
    let messages: Awaited<ReturnType<typeof ask>>;
    try {
      messages = await ask(search, ECHO);
    } finally {
      await search.close();
    }
    expect(lastText(messages)).toContain('echo answered');
    expect(lastText(messages)).toContain('FAKE_TOOL_OK via LangChain');
    await assertDeferredEchoTurn(mock.requests.slice(from), dir, 'lc-deferred');
  }, 120_000);

  it('deferred: a denied tool is neither registered, offered nor found', async () => {
    const dir = logDir();
    const search = await createToolSearch({ config: demoWithEverything(), sessionId: 'lc-denied', sessionLogDir: dir });
    const from = mock.requests.length;
    try {
      expect(search.tools.map((t) => t.name)).not.toContain('get-env');
      const messages = await ask(
        search,
        'tool search qa check target=get-env query="print the environment variables of the server process"',
      );
      expect(lastText(messages)).toContain('Search did not make get-env available');
    } finally {
      await search.close();
    }
    await assertDeniedNeverFound(mock.requests.slice(from), dir, 'lc-denied');
  }, 120_000);

  it('tools: search and call; tool_call on a denied id is an error ToolMessage with UNKNOWN_TOOL', async () => {
    const dir = logDir();
    const search = await createToolSearch({
      config: demoWithEverything(),
      mode: 'tools',
      sessionId: 'lc-tools',
      sessionLogDir: dir,
    });
    try {
      expect(lastText(await ask(search, ECHO))).toContain('FAKE_TOOL_OK via LangChain');
      const messages = await ask(
        search,
        `tool search qa steps [{"tool":"tool_call","args":{"id":"${DENIED_ID}","args":{}}}]`,
      );
      const errors = messages.filter((m) => ToolMessage.isInstance(m) && m.status === 'error') as ToolMessage[];
      expect(errors).toHaveLength(1);
      expect(String(errors[0]!.content)).toContain(`Error ${ErrorCode.UNKNOWN_TOOL}`);
      expect(errors[0]!.artifact).toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
    } finally {
      await search.close();
    }
    expect((await sessionLog(dir, 'lc-tools')).find((entry) => entry.type === 'run-end')).toMatchObject({
      searches: 1,
    });
  }, 120_000);

  it('code: tool_search_code searches and calls the MCP tool in the sandbox', async () => {
    const dir = logDir();
    const search = await createToolSearch({
      config: demoWithEverything(),
      mode: 'code',
      sessionId: 'lc-code',
      sessionLogDir: dir,
    });
    try {
      expect(lastText(await ask(search, ECHO))).toContain('FAKE_TOOL_OK via LangChain');
    } finally {
      await search.close();
    }
    expect((await sessionLog(dir, 'lc-code')).find((entry) => entry.type === 'tool-call')).toMatchObject({
      toolId: 'mcp:everything:echo',
      origin: 'code',
      status: 'ok',
    });
  }, 120_000);
});
