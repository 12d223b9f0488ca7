import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { ask, harness, slowTool, until, UPSTREAMS, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const script = (target: string) => ask(target)[0]!.content;
const lookup = [
  {
    name: 'client_lookup',
    description: 'Looks up on the client',
    input_schema: { type: 'object' as const, properties: {} },
  },
];

async function claude(mode: string, extra: Parameters<Harness['gateway']>[1] = {}) {
  const { server } = await h.gateway(mode, extra);
  return new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
}

describe.each(UPSTREAMS)('POST /v1/messages over the %s upstream', (kind) => {
  it('answers with a text block and end_turn', async () => {
    const client = await claude('tools', { upstream: h.upstream(kind) });
    const message = await client.messages.create({
      model: 'm',
      max_tokens: 512,
      system: 'Be brief.',
      messages: [{ role: 'user', content: script('fake_plugin_tool_0005') }],
    });
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content[0]?.type === 'text' && message.content[0].text).toContain(
      'FAKE_TOOL_OK fake_plugin_tool_0005',
    );
  });

  it('streams Anthropic events (the SDK stream helper assembles the message)', async () => {
    const client = await claude('directory', { upstream: h.upstream(kind) });
    const stream = client.messages.stream({
      model: 'm',
      max_tokens: 512,
      messages: [{ role: 'user', content: script('fake_plugin_tool_0005') }],
    });
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const final = await stream.finalMessage();
    expect(final.content[0]?.type === 'text' && final.content[0].text).toContain('FAKE_TOOL_OK fake_plugin_tool_0005');
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
  });

  it.each([false, true])('round-trips a client tool_use / tool_result (streaming: %s)', async (streaming) => {
    const client = await claude('tools', { upstream: h.upstream(kind) });
    const ask1 = {
      model: 'm',
      max_tokens: 512,
      tools: lookup,
      messages: [{ role: 'user' as const, content: script('client_lookup') }],
    };
    const first = streaming ? await client.messages.stream(ask1).finalMessage() : await client.messages.create(ask1);
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((block) => block.type === 'tool_use');
    expect(use?.type === 'tool_use' && use.name).toBe('client_lookup');
    const ask2 = {
      ...ask1,
      messages: [
        ...ask1.messages,
        { role: 'assistant' as const, content: first.content },
        {
          role: 'user' as const,
          content: [
            {
              type: 'tool_result' as const,
              tool_use_id: use!.type === 'tool_use' ? use!.id : '',
              content: 'FAKE_TOOL_OK client_lookup {}',
            },
          ],
        },
      ],
    };
    const second = streaming ? await client.messages.stream(ask2).finalMessage() : await client.messages.create(ask2);
    expect(second.content[0]?.type === 'text' && second.content[0].text).toContain('FAKE_TOOL_OK client_lookup');
  });
});

describe('POST /v1/messages errors and headers', () => {
  it('answers refused requests in the Anthropic error shape with the code', async () => {
    const client = await claude('tools');
    const image = {
      type: 'image' as const,
      source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'AA==' },
    };
    await expect(
      client.messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [image] }] }),
    ).rejects.toMatchObject({
      status: 400,
      error: { type: 'error', error: { type: 'invalid_request_error', code: 'REQUEST_INVALID' } },
    });
    const collision = [{ name: 'read', input_schema: { type: 'object' as const } }];
    await expect(
      client.messages.create({
        model: 'm',
        max_tokens: 5,
        tools: collision,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toMatchObject({
      status: 400,
      error: { error: { code: 'CLIENT_TOOL_COLLISION' } },
    });
  });

  it('takes x-session-id and x-agent-id', async () => {
    const client = await claude('tools');
    const message = await client.messages.create(
      { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: script('fake_plugin_tool_0005') }] },
      { headers: { 'x-session-id': 'msg-session', 'x-agent-id': 'a1' } },
    );
    expect((message as unknown as { tool_search: { session_id: string } }).tool_search.session_id).toBe('msg-session');
  });

  it('aborts the turn and its tool call when the client disconnects mid-stream', async () => {
    const seen = { started: 0, aborted: 0 };
    const client = await claude('direct', { plugins: [slowTool(seen)] });
    const stream = await client.messages.create({
      model: 'm',
      max_tokens: 5,
      stream: true,
      messages: [{ role: 'user', content: script('slow_tool') }],
    });
    const first = await stream[Symbol.asyncIterator]().next();
    expect(first.value?.type).toBe('message_start');
    await until(() => seen.started === 1);
    stream.controller.abort();
    await until(() => seen.aborted === 1);
  });
});
