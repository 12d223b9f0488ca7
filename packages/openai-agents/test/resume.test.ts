/**
 * Issue 44 item 5, durable runs with the OpenAI Agents SDK: with a `conversationId` (the SDK session's id), the tools a
 * search enabled are kept in the state store, so the next run of that conversation (a new `createToolSearch`, a new
 * Runner run, as after a restart) enables them from its first turn; tools found in one SDK run stay in that run without
 * it. The store is the process's own (no `state`, no `state.redis` in the config). The Agents SDK's own Runner with its Chat Completions model, over HTTP to the scripted mock model.
 */
import { Agent, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonSchema } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createToolSearch } from '@tool-search/openai-agents';

setTracingDisabled(true); // no trace export to a hosted service from tests

const TARGET = 'fake_plugin_tool_0005';
const config = { plugins: { 'fake-catalog': { tools: 30 } } };
type ChatBody = { tools?: { function: { name: string } }[] };

describe('OpenAI Agents SDK: a conversation’s loaded tools across runs', () => {
  let mock: MockOpenAI;
  let runner: Runner;
  let prompt: string;
  beforeAll(async () => {
    mock = await startMockOpenAI();
    runner = new Runner({
      modelProvider: new OpenAIProvider({ apiKey: 'test', baseURL: mock.url, useResponses: false }),
      tracingDisabled: true,
    });
    const direct = await createToolSearch({ config, mode: 'direct' });
    prompt = `tool search qa check target=${TARGET} args=${JSON.stringify(argsFor(direct.run.tool(TARGET)!.inputSchema))}`;
    await direct.close();
  });
  afterAll(() => mock.close());

  /** One run of the conversation in a fresh Tool Search run: the SDK's tool calls and its first request's tools. */
  async function runOnce(conversationId?: string) {
    const search = await createToolSearch({ config, ...(conversationId ? { conversationId } : {}) });
    const from = mock.requests.filter((r) => r.method === 'POST').length;
    try {
      const agent = new Agent({
        name: 'assistant',
        instructions: 'Use tools.',
        model: 'mock-tool-search',
        tools: search.tools,
      });
      const result = await runner.run(agent, prompt, { maxTurns: 6 });
      const bodies = mock.requests.filter((r) => r.method === 'POST').slice(from);
      const calls = result.newItems.flatMap((item) =>
        item.type === 'tool_call_item' && 'name' in item.rawItem ? [item.rawItem.name] : [],
      );
      return { calls, first: (bodies[0]!.body as ChatBody).tools?.map((t) => t.function.name) ?? [] };
    } finally {
      await search.close();
    }
  }

  it('the next run of the conversation has the found tool enabled from its first turn; another conversation does not', async () => {
    const one = await runOnce('agents-conv-1');
    expect(one.calls).toEqual(['tool_search', TARGET]);
    expect(one.first).not.toContain(TARGET);
    const two = await runOnce('agents-conv-1');
    expect(two.first).toContain(TARGET);
    expect(two.calls).toEqual([TARGET]);
    expect((await runOnce('agents-conv-2')).calls).toEqual(['tool_search', TARGET]);
    // Without a conversationId nothing is kept.
    await runOnce();
    expect((await runOnce()).calls).toEqual(['tool_search', TARGET]);
  }, 120_000);
});

/** Arguments the schema accepts: each required property with a value of its type. */
function argsFor(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; enum?: unknown[] }>;
  const sample = (p: { type?: string; enum?: unknown[] }) =>
    p.enum?.[0] ??
    ({ number: 1, integer: 1, boolean: true, array: [], object: {} } as Record<string, unknown>)[p.type ?? ''] ??
    'x';
  return Object.fromEntries(((schema.required ?? []) as string[]).map((key) => [key, sample(properties[key] ?? {})]));
}
