/**
 * Programmatic tool calling in `native` mode, driven with the official OpenAI client over HTTP against the gateway,
 * whose upstream is a mock speaking the documented wire format over real HTTP (the official SDKs as clients):
 * Anthropic Messages (`allowed_callers` + `code_execution_20250825`, `tool_use.caller`, `container`) and OpenAI
 * Responses (`allowed_callers: ["programmatic"]` + `programmatic_tool_calling`, `program` items, `caller`). The
 * form is sent only when the capability table says the model takes it; every call the sandbox makes runs through
 * the run: a refused call is refused, an approval-gated one asks and waits, telemetry says `caller: "programmatic"`.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGE, type KernelPlugin } from '@tool-search/kernel';
import { nativeModePlugin } from '@tool-search/mode-native';
import { ApprovalQueue, approvalsPlugin } from '@tool-search/plugin-approvals';
import { loopDetectionPlugin } from '@tool-search/plugin-loop-detection';
import { telemetryPlugin } from '@tool-search/telemetry';
import {
  capabilitiesFromConfig,
  openaiResponsesUpstream,
  type CapabilityRule,
  type TurnToolCall,
  type Upstream,
} from '@tool-search/gateway';
import { ask, harness, type Harness } from './helpers.js';

const TARGET = 'fake_plugin_tool_0005';
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

type Json = Record<string, any>;
const PROGRAMMATIC: CapabilityRule[] = capabilitiesFromConfig({
  'anthropic/mock-claude': { deferLoading: true, toolSearch: true, toolReference: true, programmatic: true },
  'openai/mock-model': { programmatic: true },
});
const responses = (): Upstream =>
  openaiResponsesUpstream(new OpenAI({ baseURL: h.openai.url, apiKey: 'mock', maxRetries: 0 }), 'mock-model');

/** A call-time policy refusing one tool (the stage policy plugins block at), as a sandbox policy or a denial would. */
function refuse(name: string): KernelPlugin {
  return {
    name: 'test-policy',
    apply({ hooks }) {
      hooks.beforeToolCall.tap({ stage: STAGE.POLICY }, (call) =>
        call.tool.name === name ? { action: 'block', reason: `policy: ${name} is denied` } : undefined,
      );
    },
  };
}

async function native(upstream: Upstream, extra: { capabilities?: CapabilityRule[]; plugins?: KernelPlugin[] } = {}) {
  const telemetry = telemetryPlugin({ tokenizer: false });
  const gateway = await h.gateway('native', {
    upstream,
    ...(extra.capabilities ? { capabilities: extra.capabilities } : {}),
    plugins: [nativeModePlugin(), telemetry, ...(extra.plugins ?? [])],
  });
  const turn = async (script = TARGET) => {
    const completion = await gateway.client.chat.completions.create({ model: 'm', messages: ask(script) });
    const field = (completion as unknown as { tool_search: { session_id: string; tool_calls: TurnToolCall[] } })
      .tool_search;
    await telemetry.flush();
    const calls = telemetry.entries(field.session_id).filter((e) => e.type === 'tool-call') as Json[];
    return { text: completion.choices[0]?.message.content ?? '', toolCalls: field.tool_calls, logged: calls };
  };
  return { ...gateway, turn };
}

const anthropicSent = (from: number) => h.received('anthropic', from).map((r) => r.body as Json);
const openaiSent = (from: number) =>
  h.openai.requests
    .slice(from)
    .filter((r) => r.path === '/v1/responses')
    .map((r) => r.body as Json);

describe('programmatic tool calling, Anthropic Messages', () => {
  it('sends allowed_callers and the code-execution tool, runs the sandbox call through the run, round-trips the program', async () => {
    const { turn } = await native(h.upstream('anthropic'), { capabilities: PROGRAMMATIC });
    const from = h.anthropic.requests.length;
    const { text, toolCalls, logged } = await turn();
    expect(text).toContain(`FAKE_TOOL_OK ${TARGET}`);
    expect(toolCalls.map((c) => [c.name, c.status, c.caller])).toEqual([
      ['tool_search', 'ok', undefined],
      [TARGET, 'ok', 'programmatic'],
    ]);
    expect(logged.find((e) => e.name === TARGET)).toMatchObject({ status: 'ok', caller: 'programmatic' });
    expect(logged.find((e) => e.name === 'tool_search')?.caller).toBeUndefined();

    const sent = anthropicSent(from);
    expect(sent).toHaveLength(3);
    const tools = sent[0]!.tools as Json[];
    expect(tools.at(-1)).toEqual({ type: 'code_execution_20250825', name: 'code_execution' });
    const catalog = tools.filter((t) => String(t.name).startsWith('fake_'));
    expect(catalog.every((t) => t.defer_loading === true)).toBe(true);
    expect(catalog.every((t) => JSON.stringify(t.allowed_callers) === '["direct","code_execution_20250825"]')).toBe(
      true,
    );
    expect(tools.find((t) => t.name === 'tool_search')?.allowed_callers).toBeUndefined();
    // The sandbox's call goes back with its code execution and caller, in the container it ran in.
    const third = sent[2]!;
    const assistant = (third.messages as Json[]).at(-2)!.content as Json[];
    const code = assistant.find((b) => b.type === 'server_tool_use')!;
    expect(code.name).toBe('code_execution');
    expect(assistant.find((b) => b.type === 'tool_use')?.caller).toEqual({
      type: 'code_execution_20250825',
      tool_id: code.id,
    });
    expect(third.container).toBe(`container_mock_${code.id}`);
    expect(((third.messages as Json[]).at(-1)!.content as Json[]).map((b) => b.type)).toEqual(['tool_result']);
  });

  it('sends no allowed_callers and no code-execution tool when the capability table says no', async () => {
    const { turn } = await native(h.upstream('anthropic'));
    const from = h.anthropic.requests.length;
    const { text, toolCalls } = await turn();
    expect(text).toContain(`FAKE_TOOL_OK ${TARGET}`);
    expect(toolCalls.every((c) => c.caller === undefined)).toBe(true);
    for (const body of anthropicSent(from)) {
      expect(JSON.stringify(body.tools)).not.toContain('allowed_callers');
      expect(JSON.stringify(body.tools)).not.toContain('code_execution');
      expect(body.container).toBeUndefined();
    }
  });

  it('a call the run refuses is refused: the tool does not run, the sandbox reads the refusal', async () => {
    const { turn } = await native(h.upstream('anthropic'), { capabilities: PROGRAMMATIC, plugins: [refuse(TARGET)] });
    const from = h.anthropic.requests.length;
    const { text, toolCalls, logged } = await turn();
    expect(text).toContain(`${TARGET} did not succeed`);
    expect(text).not.toContain('FAKE_TOOL_OK');
    expect(toolCalls.find((c) => c.name === TARGET)).toMatchObject({ status: 'blocked', caller: 'programmatic' });
    expect(logged.find((e) => e.name === TARGET)).toMatchObject({ status: 'blocked', caller: 'programmatic' });
    const result = JSON.stringify((anthropicSent(from)[2]!.messages as Json[]).at(-1));
    expect(result).toContain(`policy: ${TARGET} is denied`);
  });

  it('loop detection counts the sandbox calls: the repeated call is blocked, the program reads why', async () => {
    const loops = loopDetectionPlugin({
      tools: {
        loopDetection: { enabled: true, warningThreshold: 2, criticalThreshold: 3, globalCircuitBreakerThreshold: 9 },
      },
    });
    const { turn } = await native(h.upstream('anthropic'), { capabilities: PROGRAMMATIC, plugins: [loops] });
    const { toolCalls, logged } = await turn(`${TARGET} loop=4`);
    const sandbox = toolCalls.filter((c) => c.name === TARGET);
    expect(sandbox.every((c) => c.caller === 'programmatic')).toBe(true);
    expect(sandbox.map((c) => c.status).slice(0, 3)).toEqual(['ok', 'ok', 'blocked']);
    expect(logged.find((e) => e.status === 'blocked')).toMatchObject({
      name: TARGET,
      caller: 'programmatic',
      blockedBy: '@tool-search/plugin-loop-detection',
    });
  });

  it('an approval-gated tool called by the sandbox asks, waits until approved, then completes', async () => {
    const queue = new ApprovalQueue();
    const asked: Json[] = [];
    queue.subscribe((event) => {
      if (event.type === 'requested') asked.push(event.approval as unknown as Json);
    });
    const { turn } = await native(h.upstream('anthropic'), {
      capabilities: PROGRAMMATIC,
      plugins: [approvalsPlugin({ config: { require: [TARGET] }, approve: queue.approve })],
    });
    const from = h.anthropic.requests.length;
    let finished = false;
    const running = turn().finally(() => {
      finished = true;
    });
    while (asked.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(asked[0]!.request).toMatchObject({ name: TARGET });
    // Waiting: the sandbox's call was asked for, nothing was sent back upstream, the turn has not answered.
    expect(anthropicSent(from)).toHaveLength(2);
    expect(finished).toBe(false);
    expect(queue.list().map((p) => p.id)).toEqual([asked[0]!.id]);
    expect(queue.answer(asked[0]!.id, 'allow')).toBe(true);
    const { text, toolCalls, logged } = await running;
    expect(text).toContain(`FAKE_TOOL_OK ${TARGET}`);
    expect(toolCalls.find((c) => c.name === TARGET)).toMatchObject({ status: 'ok', caller: 'programmatic' });
    expect(logged.find((e) => e.name === TARGET)).toMatchObject({ status: 'ok', caller: 'programmatic' });
    expect(anthropicSent(from)).toHaveLength(3);
  });
});

describe('a provider claiming a sandbox call it was not offered', () => {
  it('is refused before the run: the search tool does not run from the sandbox', async () => {
    const real = h.upstream('anthropic');
    const bodies: string[] = [];
    const lying: Upstream = {
      ...real,
      // The provider's side is scripted here: no real provider (nor the mock) makes this call.
      async send(body) {
        bodies.push(body);
        return bodies.length === 1
          ? {
              content: null,
              stopped: 'tool_calls',
              toolCalls: [
                {
                  id: 'toolu_lie',
                  name: 'tool_search',
                  arguments: '{"query":"secrets"}',
                  caller: { type: 'code_execution_20250825', id: 'srvtoolu_lie' },
                },
              ],
            }
          : { content: 'done', toolCalls: [], stopped: 'stop' };
      },
    };
    const { turn } = await native(lying, { capabilities: PROGRAMMATIC });
    const { text, toolCalls, logged } = await turn();
    expect(text).toBe('done');
    expect(toolCalls).toEqual([
      { name: 'tool_search', status: 'blocked', toolId: expect.any(String), caller: 'programmatic' },
    ]);
    expect(logged).toEqual([]);
    expect(bodies[1]).toContain("tool_search is not callable from the provider's sandbox");
  });
});

describe('programmatic tool calling, OpenAI Responses', () => {
  it('sends allowed_callers and programmatic_tool_calling, runs the program call through the run, round-trips the program', async () => {
    const { turn } = await native(responses(), { capabilities: PROGRAMMATIC });
    const from = h.openai.requests.length;
    const { text, toolCalls, logged } = await turn();
    expect(text).toContain(`FAKE_TOOL_OK ${TARGET}`);
    expect(toolCalls.find((c) => c.name === TARGET)).toMatchObject({ status: 'ok', caller: 'programmatic' });
    expect(logged.find((e) => e.name === TARGET)).toMatchObject({ status: 'ok', caller: 'programmatic' });

    const sent = openaiSent(from);
    expect(sent).toHaveLength(2);
    const tools = sent[0]!.tools as Json[];
    expect(tools.at(-1)).toEqual({ type: 'programmatic_tool_calling' });
    const target = tools.find((t) => t.name === TARGET)!;
    expect(target).toMatchObject({ type: 'function', allowed_callers: ['direct', 'programmatic'] });
    expect(tools.find((t) => t.name === 'tool_search')?.allowed_callers).toBeUndefined();
    // The program item goes back as it came (its fingerprint), with the call and its caller, then the output.
    const input = sent[1]!.input as Json[];
    const program = input.find((i) => i.type === 'program')!;
    expect(program.fingerprint).toMatch(/^fp_/);
    expect(input.find((i) => i.type === 'function_call')?.caller).toEqual({
      type: 'program',
      caller_id: program.call_id,
    });
    expect(input.at(-1)).toMatchObject({ type: 'function_call_output' });
  });

  it('an approval-gated tool called by a program asks and waits; a denial refuses it', async () => {
    const queue = new ApprovalQueue();
    const asked: string[] = [];
    queue.subscribe((event) => {
      if (event.type === 'requested') asked.push(event.approval.id);
    });
    const { turn } = await native(responses(), {
      capabilities: PROGRAMMATIC,
      plugins: [approvalsPlugin({ config: { require: [TARGET] }, approve: queue.approve })],
    });
    const from = h.openai.requests.length;
    const running = turn();
    while (asked.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(openaiSent(from)).toHaveLength(1);
    queue.answer(asked[0]!, 'deny');
    const { text, toolCalls, logged } = await running;
    expect(text).toContain(`${TARGET} did not succeed`);
    expect(toolCalls.find((c) => c.name === TARGET)).toMatchObject({ status: 'blocked', caller: 'programmatic' });
    expect(logged.find((e) => e.name === TARGET)).toMatchObject({ status: 'blocked', caller: 'programmatic' });
  });

  it('without the capability, or on Chat Completions, native mode falls back to tools mode: no programmatic form', async () => {
    for (const [upstream, capabilities] of [
      [responses(), undefined],
      [h.upstream('openai'), PROGRAMMATIC],
    ] as const) {
      const { turn } = await native(upstream, capabilities ? { capabilities } : {});
      const from = h.openai.requests.length;
      const { text, toolCalls } = await turn();
      expect(text).toContain(`FAKE_TOOL_OK ${TARGET}`);
      expect(toolCalls.map((c) => c.name)).toEqual(['tool_search', 'tool_call']);
      for (const request of h.openai.requests.slice(from)) {
        expect(request.raw).not.toContain('allowed_callers');
        expect(request.raw).not.toContain('programmatic_tool_calling');
      }
    }
  });
});

describe('the Responses upstream body', () => {
  it('sends instructions, input items and flat function tools, also for tools appended in Chat Completions form', () => {
    const body = JSON.parse(
      responses().body({
        system: 'Be brief.',
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'done' },
        ],
        toolsJson: JSON.stringify([
          { type: 'function', name: 'f', parameters: { type: 'object' }, strict: false },
          { type: 'function', function: { name: 'g', parameters: { type: 'object' } } },
        ]),
      }),
    );
    expect(body).toMatchObject({ model: 'mock-model', store: false, instructions: 'Be brief.' });
    expect(body.input).toEqual([
      { role: 'user', content: 'hi' },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'done' },
    ]);
    expect(body.tools.map((t: Json) => [t.type, t.name, t.function])).toEqual([
      ['function', 'f', undefined],
      ['function', 'g', undefined],
    ]);
  });
});
