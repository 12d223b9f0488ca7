import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type KernelPlugin, type RunEvent } from '@tool-search/kernel';
import { fakeTool, toolSource } from '@tool-search/testing';
import { harness, type Harness } from './helpers.js';

// A model that writes invalid JSON arguments: `argsText="…"` makes the mock send that text verbatim as `arguments`.
const BROKEN = '{"city": "Oslo';
const script = (target: string, extra: string) => `tool search qa check target=${target} ${extra}`;
const broken = (target: string) => script(target, `argsText=${JSON.stringify(BROKEN)}`);

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

/** A tool whose schema takes any object (a stand-in object for bad JSON would pass it), recording what ran. */
function looseTool() {
  const ran: unknown[] = [];
  const events: Extract<RunEvent, { type: 'tool-arguments-invalid' }>[] = [];
  const tool = fakeTool('loose_forecast', 'plugin', 'weather', 'Forecast for a city (takes any object)', {
    execute: (args) => {
      ran.push(args);
      return { content: [{ type: 'text', text: `FAKE_TOOL_OK loose_forecast ${JSON.stringify(args)}` }] };
    },
  });
  const watcher: KernelPlugin = {
    name: 'invalid-arguments-watcher',
    apply: ({ hooks }) =>
      hooks.runEvent.tap((event) => void (event.type === 'tool-arguments-invalid' && events.push(event))),
  };
  return { ran, events, plugins: [toolSource([tool], 'loose-source'), watcher] };
}

/** The tool messages the mock OpenAI model was sent since `from`. */
function toolMessages(from: number): string[] {
  return h
    .received('openai', from)
    .flatMap(({ body }) =>
      ((body.messages as { role: string; content: unknown }[]) ?? [])
        .filter((m) => m.role === 'tool')
        .map((m) => String(m.content)),
    );
}

describe('invalid JSON arguments from a model', () => {
  it.each(['direct', 'directory'])(
    '%s mode: the tool does not run and the model reads TOOL_ARGUMENTS_INVALID naming the parse error',
    async (mode) => {
      const { ran, events, plugins } = looseTool();
      const { client } = await h.gateway(mode, { plugins });
      const from = h.openai.requests.length;
      const res = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: broken('loose_forecast') }],
      });
      expect(ran).toEqual([]);
      const [told] = toolMessages(from);
      expect(told).toContain(ErrorCode.TOOL_ARGUMENTS_INVALID);
      expect(told).toMatch(/not valid JSON \(.+\)/);
      expect(told).not.toContain('__invalid_json__');
      expect(res.choices[0]?.message.content).toContain('did not succeed');
      expect((res as unknown as { tool_search: { tool_calls: unknown[] } }).tool_search.tool_calls).toEqual([
        { name: 'loose_forecast', status: 'error', toolId: 'plugin:weather:loose_forecast' },
      ]);
      expect(events).toHaveLength(1);
      expect(events[0]!.error).toMatchObject({
        code: ErrorCode.TOOL_ARGUMENTS_INVALID,
        toolId: 'plugin:weather:loose_forecast',
      });
      expect(events[0]!.error.errors).toEqual([expect.objectContaining({ path: '/', rule: 'json' })]);
      expect(events[0]!.error.cause).toBeInstanceOf(SyntaxError);
    },
  );

  it('positive control: the same call with valid JSON runs the tool once', async () => {
    const { ran, events, plugins } = looseTool();
    const { client } = await h.gateway('direct', { plugins });
    const res = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: script('loose_forecast', 'args={"city":"Oslo"}') }],
    });
    expect(ran).toEqual([{ city: 'Oslo' }]);
    expect(events).toEqual([]);
    expect(res.choices[0]?.message.content).toContain('FAKE_TOOL_OK');
  });

  it('over the Anthropic Messages front end too (official Anthropic client), and nothing is handed to the client', async () => {
    const { ran, plugins } = looseTool();
    const { server } = await h.gateway('direct', { plugins });
    const claude = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
    const message = await claude.messages.create({
      model: 'm',
      max_tokens: 256,
      messages: [{ role: 'user', content: broken('loose_forecast') }],
    });
    expect(ran).toEqual([]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content.filter((block) => block.type === 'tool_use')).toEqual([]);
    expect(JSON.stringify(message.content)).toContain(ErrorCode.TOOL_ARGUMENTS_INVALID);
  });

  it('a client tool called with invalid JSON is not handed to the client with a stand-in object', async () => {
    const { plugins } = looseTool();
    const { client } = await h.gateway('direct', { plugins });
    const from = h.openai.requests.length;
    const res = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: broken('client_lookup') }],
      tools: [
        {
          type: 'function',
          function: { name: 'client_lookup', description: 'Looks up on the client', parameters: { type: 'object' } },
        },
      ],
    });
    expect(res.choices[0]?.finish_reason).toBe('stop');
    expect(res.choices[0]?.message.tool_calls ?? []).toEqual([]);
    expect(toolMessages(from)[0]).toContain(ErrorCode.TOOL_ARGUMENTS_INVALID);
  });

  it('history with invalid JSON arguments bound for Anthropic is refused (REQUEST_INVALID), not sent with a stand-in', async () => {
    const { client } = await h.gateway('direct', { upstream: h.upstream('anthropic') });
    const before = h.received('anthropic').length;
    const request = client.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'user', content: 'look it up' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'client_lookup', arguments: BROKEN } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'done' },
      ],
    });
    await expect(request).rejects.toMatchObject({ status: 400, code: 'REQUEST_INVALID' });
    expect(h.received('anthropic').length).toBe(before);
  });
});
