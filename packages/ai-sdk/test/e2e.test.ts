import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createToolSearch } from '@tool-search/ai-sdk';
import {
  assertDeferredEchoTurn,
  assertDeniedNeverFound,
  demoWithEverything,
  EVERYTHING_DENIED_ID as DENIED_ID,
  logDir,
  sessionLog,
} from '@tool-search/testing';

// Issue 29: the AI SDK's own agent loop (generateText + its OpenAI provider over real HTTP to the scripted mock model)
// searches with Tool Search's ranker, finds a real stdio MCP server's tool among the demo catalog, and calls it through the run.
describe('AI SDK: generateText with Tool Search tools', () => {
  let mock: MockOpenAI;
  beforeAll(async () => {
    mock = await startMockOpenAI();
  });
  afterAll(() => mock.close());
  const model = () => createOpenAI({ baseURL: mock.url, apiKey: 'test' }).chat('mock-tool-search');
  const ECHO =
    'tool search qa check target=echo args={"message":"FAKE_TOOL_OK via the AI SDK"} query="echo back the message I send"';

  it('deferred (default): toolSearch with our ranker loads the MCP tool, the call runs through the run and is logged', async () => {
    const dir = logDir();
    const search = await createToolSearch({
      config: demoWithEverything(),
      sessionId: 'ai-deferred',
      sessionLogDir: dir,
      provider: 'openai',
      model: 'mock-tool-search',
    });
    const from = mock.requests.length;
    let text: string;
    let steps: Awaited<ReturnType<typeof generateText>>['steps'];
    try {
      expect(search.mode).toBe('deferred');
      expect(search.toolName('mcp:everything:echo')).toBe('echo');
      expect(search.toolName(DENIED_ID)).toBeUndefined();
      ({ text, steps } = await generateText({
        model: model(),
        tools: search.tools,
        prompt: ECHO,
        stopWhen: isStepCount(6),
      }));
    } finally {
      await search.close();
    }
    expect(text).toContain('echo answered');
    expect(text).toContain('FAKE_TOOL_OK via the AI SDK');
    expect(steps.flatMap((step) => step.toolCalls.map((call) => call.toolName))).toEqual(['tool_search', 'echo']);
    const log = await assertDeferredEchoTurn(mock.requests.slice(from), dir, 'ai-deferred');
    expect(log.find((entry) => entry.type === 'search')).toMatchObject({
      queries: ['echo back the message I send'],
      ranker: { id: 'bm25f' },
    });
    expect(log.find((entry) => entry.type === 'tool-call')).toMatchObject({ origin: 'direct' });
  }, 120_000);

  it('deferred: a denied tool is neither offered nor found nor callable', async () => {
    const dir = logDir();
    const search = await createToolSearch({ config: demoWithEverything(), sessionId: 'ai-denied', sessionLogDir: dir });
    const from = mock.requests.length;
    try {
      const { text } = await generateText({
        model: model(),
        tools: search.tools,
        prompt: 'tool search qa check target=get-env query="print the environment variables of the server process"',
        stopWhen: isStepCount(4),
      });
      expect(text).toContain('Search did not make get-env available');
      expect(Object.keys(search.tools)).not.toContain('get-env');
    } finally {
      await search.close();
    }
    await assertDeniedNeverFound(mock.requests.slice(from), dir, 'ai-denied');
  }, 120_000);

  it('deferred: concurrent generations share one ToolSet and run, each loading only what its own search found', async () => {
    const dir = logDir();
    const search = await createToolSearch({
      config: demoWithEverything(),
      sessionId: 'ai-concurrent',
      sessionLogDir: dir,
    });
    const from = mock.requests.length;
    try {
      const asks = [
        'tool search qa check target=echo args={"message":"FAKE_TOOL_OK one"} query="echo back the message I send"',
        'tool search qa check target=get-sum args={"a":2,"b":3} query="add two numbers together"',
        'tool search qa check target=echo args={"message":"FAKE_TOOL_OK three"} query="echo back the message I send"',
      ];
      const results = await Promise.all(
        asks.map((prompt) => generateText({ model: model(), tools: search.tools, prompt, stopWhen: isStepCount(6) })),
      );
      expect(results[0]!.text).toContain('FAKE_TOOL_OK one');
      expect(results[2]!.text).toContain('FAKE_TOOL_OK three');
      expect(results[1]!.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName))).toEqual([
        'tool_search',
        'get-sum',
      ]);
      expect(
        results[1]!.steps.flatMap((step) => step.toolResults.map((r) => JSON.stringify(r.output))).join(' '),
      ).toMatch(/\b5\b/);
    } finally {
      await search.close();
    }
    // Every request that carried a user message about the sum offered no echo, and the other way round.
    for (const request of mock.requests.slice(from)) {
      const body = request.body as {
        messages: { role: string; content: unknown }[];
        tools?: { function: { name: string } }[];
      };
      const prompt = JSON.stringify(body.messages.find((m) => m.role === 'user')?.content ?? '');
      const names = (body.tools ?? []).map((t) => t.function.name);
      if (prompt.includes('get-sum')) expect(names).not.toContain('echo');
      else expect(names).not.toContain('get-sum');
    }
    expect((await sessionLog(dir, 'ai-concurrent')).find((entry) => entry.type === 'run-end')).toMatchObject({
      searches: 3,
      calls: 3,
    });
  }, 120_000);

  it("direct: loop detection sees the framework loop's calls and blocks the repeat as a coded tool error", async () => {
    const search = await createToolSearch({
      config: {
        plugins: { 'fake-catalog': { tools: 10 } },
        tools: {
          loopDetection: {
            enabled: true,
            warningThreshold: 2,
            criticalThreshold: 3,
            globalCircuitBreakerThreshold: 10,
          },
        },
      },
      mode: 'direct',
      sessionId: 'ai-loop',
    });
    try {
      const { steps } = await generateText({
        model: model(),
        tools: search.tools,
        prompt: 'tool search qa check target=read args={"path":"a.txt"} loop=4',
        stopWhen: isStepCount(8),
      });
      const parts = steps.flatMap((step) =>
        step.content.filter((part) => part.type === 'tool-result' || part.type === 'tool-error'),
      );
      expect(parts.map((part) => part.type)).toEqual(['tool-result', 'tool-result', 'tool-error', 'tool-error']);
      expect(parts[2]).toMatchObject({ toolName: 'read', error: { code: ErrorCode.TOOL_CALL_BLOCKED } });
    } finally {
      await search.close();
    }
  }, 120_000);

  it('tools: tool_search + tool_call through the loop; tool_call on a denied id is a tool error with UNKNOWN_TOOL', async () => {
    const dir = logDir();
    const search = await createToolSearch({
      config: demoWithEverything(),
      mode: 'tools',
      sessionId: 'ai-tools',
      sessionLogDir: dir,
    });
    try {
      expect(Object.keys(search.tools).sort()).toEqual(
        expect.arrayContaining(['tool_call', 'tool_describe', 'tool_search']),
      );
      const found = await generateText({ model: model(), tools: search.tools, prompt: ECHO, stopWhen: isStepCount(6) });
      expect(found.text).toContain('FAKE_TOOL_OK via the AI SDK');
      // The model insists on the denied tool by id: the framework reports the run's verdict as a tool error.
      const denied = await generateText({
        model: model(),
        tools: search.tools,
        prompt: `tool search qa steps [{"tool":"tool_call","args":{"id":"${DENIED_ID}","args":{}}}]`,
        stopWhen: isStepCount(3),
      });
      const errors = denied.steps.flatMap((step) => step.content.filter((part) => part.type === 'tool-error'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ toolName: 'tool_call', error: { code: ErrorCode.UNKNOWN_TOOL } });
    } finally {
      await search.close();
    }
    const end = (await sessionLog(dir, 'ai-tools')).find((entry) => entry.type === 'run-end');
    expect(end).toMatchObject({ searches: 1 });
    expect((end as { calls: number }).calls).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
