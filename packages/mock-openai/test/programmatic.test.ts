/**
 * Programmatic tool calling on the Responses API over real HTTP with the official client. The installed `openai`
 * SDK (6.10) has no types for it yet, so the documented wire format goes as JSON: `allowed_callers:
 * ["programmatic"]`, the `programmatic_tool_calling` tool, `program` / `program_output` items, `caller` on calls.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { ASK, TARGET } from './fixtures.js';

let mock: MockOpenAI;
let client: OpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
  client = new OpenAI({ baseURL: mock.url, apiKey: 'test-key', maxRetries: 0 });
});
afterAll(() => mock.close());

type Item = Record<string, unknown>;
const fnTool = (callers?: string[]) => ({
  type: 'function',
  name: TARGET,
  parameters: { type: 'object', properties: {} },
  strict: false,
  ...(callers ? { allowed_callers: callers } : {}),
});
const create = (input: unknown, tools: unknown[]) =>
  client.responses.create({ model: 'mock-tool-search', input, tools, store: false } as never) as unknown as Promise<{
    output: Item[];
  }>;

describe('programmatic tool calling (Responses API)', () => {
  it('calls from a program, takes the program back with the output, then the program output leads the answer', async () => {
    const tools = [fnTool(['direct', 'programmatic']), { type: 'programmatic_tool_calling' }];
    const ask = `${ASK} args={"q":"x"}`;
    const first = await create(ask, tools);
    expect(first.output.map((i) => i.type)).toEqual(['program', 'function_call']);
    const [program, call] = first.output as [Item, Item];
    expect(program).toMatchObject({
      code: expect.stringContaining(TARGET),
      fingerprint: expect.stringMatching(/^fp_/),
    });
    expect(call).toMatchObject({ name: TARGET, arguments: '{"q":"x"}' });
    expect(call.caller).toEqual({ type: 'program', caller_id: program.call_id });

    const output = { type: 'function_call_output', call_id: call.call_id, output: 'FAKE_TOOL_OK 42' };
    // The program item must come back, its fingerprint as it came.
    await expect(create([{ role: 'user', content: ask }, call, output], tools)).rejects.toMatchObject({ status: 400 });
    await expect(
      create([{ role: 'user', content: ask }, { ...program, fingerprint: 'fp_forged' }, call, output], tools),
    ).rejects.toMatchObject({ status: 400 });

    const second = await create([{ role: 'user', content: ask }, ...first.output, output], tools);
    expect(second.output.map((i) => i.type)).toEqual(['program_output', 'message']);
    expect(second.output[0]).toMatchObject({
      call_id: program.call_id,
      result: 'FAKE_TOOL_OK 42',
      status: 'completed',
    });
    expect(JSON.stringify(second.output[1])).toContain('FAKE_TOOL_OK 42');
  });

  it('calls directly without the programmatic tool, or a tool whose allowed_callers leave programs out', async () => {
    for (const tools of [
      [fnTool(['direct', 'programmatic'])],
      [fnTool(['direct']), { type: 'programmatic_tool_calling' }],
      [fnTool(), { type: 'programmatic_tool_calling' }],
    ]) {
      const first = await create(ASK, tools);
      expect(first.output.map((i) => i.type)).toEqual(['function_call']);
      expect(first.output[0]!.caller).toBeUndefined();
    }
  });
});
