import { Agent, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createToolSearch, type ToolSearchTools } from '@tool-search/openai-agents';
import {
  assertDeferredEchoTurn,
  assertDeniedNeverFound,
  demoWithEverything,
  EVERYTHING_DENIED_ID as DENIED_ID,
  logDir,
  offeredPerRequest,
  sessionLog,
} from '@tool-search/testing';

setTracingDisabled(true); // no trace export to a hosted service from tests

// Issue 29: the Agents SDK's own runner (Chat Completions model from its OpenAIProvider, over real HTTP to the scripted
// mock model) searches with Tool Search's ranker, finds a real stdio MCP server's tool among the demo catalog, calls it.
describe('OpenAI Agents SDK: Runner with Tool Search tools', () => {
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
  const ECHO =
    'tool search qa check target=echo args={"message":"FAKE_TOOL_OK via the Agents SDK"} query="echo back the message I send"';
  const agentWith = (search: ToolSearchTools) =>
    new Agent({ name: 'assistant', instructions: 'Use tools.', model: 'mock-tool-search', tools: search.tools });

  it('deferred (default): tool_search enables the found MCP tool for the next turn; the call runs through the run and is logged', async () => {
    const dir = logDir();
    const search = await createToolSearch({
      config: demoWithEverything(),
      sessionId: 'agents-deferred',
      sessionLogDir: dir,
    });
    const from = mock.requests.length;
    let output: unknown;
    try {
      expect(search.tools.map((t) => t.name)).not.toContain('get-env');
      ({ finalOutput: output } = await runner.run(agentWith(search), ECHO, { maxTurns: 6 }));
    } finally {
      await search.close();
    }
    expect(String(output)).toContain('echo answered');
    expect(String(output)).toContain('FAKE_TOOL_OK via the Agents SDK');
    await assertDeferredEchoTurn(mock.requests.slice(from), dir, 'agents-deferred');
  }, 120_000);

  it('deferred: a denied tool is neither offered nor found; tools found in one Agents SDK run are not enabled in another', async () => {
    const dir = logDir();
    const search = await createToolSearch({
      config: demoWithEverything(),
      sessionId: 'agents-denied',
      sessionLogDir: dir,
    });
    const from = mock.requests.length;
    try {
      const denied = await runner.run(
        agentWith(search),
        'tool search qa check target=get-env query="print the environment variables of the server process"',
        { maxTurns: 4 },
      );
      expect(String(denied.finalOutput)).toContain('Search did not make get-env available');
      // A fresh Agents SDK run starts with only the search tool and the direct-only tools.
      const before = mock.requests.length;
      await runner.run(agentWith(search), 'hello', { maxTurns: 2 });
      expect(offeredPerRequest(mock.requests.slice(before))[0]).not.toContain('echo');
    } finally {
      await search.close();
    }
    await assertDeniedNeverFound(mock.requests.slice(from), dir, 'agents-denied');
  }, 120_000);

  it("deferred on the Responses API: the SDK's own client tool_search with Tool Search's ranker loads the deferred MCP tool", async () => {
    const dir = logDir();
    const responses = new Runner({
      modelProvider: new OpenAIProvider({ apiKey: 'test', baseURL: mock.url, useResponses: true }),
      tracingDisabled: true,
    });
    const search = await createToolSearch({
      config: demoWithEverything(),
      responsesToolSearch: true,
      sessionId: 'agents-responses',
      sessionLogDir: dir,
    });
    const from = mock.requests.length;
    let output: unknown;
    try {
      ({ finalOutput: output } = await responses.run(agentWith(search), ECHO, { maxTurns: 6 }));
    } finally {
      await search.close();
    }
    expect(String(output)).toContain('FAKE_TOOL_OK via the Agents SDK');
    const sent = mock.requests
      .slice(from)
      .filter((request) => request.path === '/v1/responses')
      .map(
        (request) =>
          request.body as {
            tools: { type: string; name?: string; defer_loading?: boolean }[];
            input: { type?: string }[];
          },
      );
    // The SDK sends the hosted tool_search and every catalog tool deferred; the denied tool is not among them.
    expect(sent[0]!.tools.find((tool) => tool.type === 'tool_search')).toBeDefined();
    expect(sent[0]!.tools.find((tool) => tool.name === 'echo')).toMatchObject({ defer_loading: true });
    expect(sent[0]!.tools.find((tool) => tool.name === 'get-env')).toBeUndefined();
    expect(sent[1]!.input.map((item) => item.type)).toEqual(
      expect.arrayContaining(['tool_search_call', 'tool_search_output']),
    );
    const log = await sessionLog(dir, 'agents-responses');
    expect((log.find((entry) => entry.type === 'search') as { hits: readonly string[] }).hits[0]).toBe(
      'mcp:everything:echo',
    );
    expect(log.find((entry) => entry.type === 'tool-call')).toMatchObject({
      toolId: 'mcp:everything:echo',
      status: 'ok',
      searchRank: 1,
    });
  }, 120_000);

  it('tools: search, call, and tool_call on a denied id comes back as the tool error with UNKNOWN_TOOL', async () => {
    const dir = logDir();
    const search = await createToolSearch({
      config: demoWithEverything(),
      mode: 'tools',
      sessionId: 'agents-tools',
      sessionLogDir: dir,
    });
    try {
      expect(search.tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['tool_search', 'tool_describe', 'tool_call']),
      );
      const found = await runner.run(agentWith(search), ECHO, { maxTurns: 6 });
      expect(String(found.finalOutput)).toContain('FAKE_TOOL_OK via the Agents SDK');
      const denied = await runner.run(
        agentWith(search),
        `tool search qa steps [{"tool":"tool_call","args":{"id":"${DENIED_ID}","args":{}}}]`,
        { maxTurns: 3 },
      );
      const outputs = denied.newItems
        .filter((item) => item.type === 'tool_call_output_item')
        .map((item) => String((item as { output: unknown }).output));
      expect(outputs).toHaveLength(1);
      expect(outputs[0]).toContain(`Error ${ErrorCode.UNKNOWN_TOOL}`);
    } finally {
      await search.close();
    }
    expect((await sessionLog(dir, 'agents-tools')).find((entry) => entry.type === 'run-end')).toMatchObject({
      searches: 1,
    });
  }, 120_000);

  it('code: tool_search_code searches and calls the MCP tool in the sandbox', async () => {
    const dir = logDir();
    const search = await createToolSearch({
      config: demoWithEverything(),
      mode: 'code',
      sessionId: 'agents-code',
      sessionLogDir: dir,
    });
    try {
      expect(search.tools.map((t) => t.name)).toContain('tool_search_code');
      const result = await runner.run(agentWith(search), ECHO, { maxTurns: 4 });
      expect(String(result.finalOutput)).toContain('FAKE_TOOL_OK via the Agents SDK');
    } finally {
      await search.close();
    }
    expect((await sessionLog(dir, 'agents-code')).find((entry) => entry.type === 'tool-call')).toMatchObject({
      toolId: 'mcp:everything:echo',
      origin: 'code',
      status: 'ok',
    });
  }, 120_000);
});
