import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, harness, slowTool, until, UPSTREAMS, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const script = (target: string) => ask(target)[0]!.content;
const lookup = [
  {
    type: 'function' as const,
    name: 'client_lookup',
    description: 'Looks up on the client',
    parameters: { type: 'object', properties: {} },
    strict: false,
  },
];

describe.each(UPSTREAMS)('POST /v1/responses over the %s upstream', (kind) => {
  it('answers a text input (output_text) with the ledger in tool_search', async () => {
    const { client } = await h.gateway('tools', { upstream: h.upstream(kind) });
    const response = await client.responses.create({
      model: 'm',
      input: script('fake_plugin_tool_0005'),
      instructions: 'Be brief.',
    });
    expect(response.status).toBe('completed');
    expect(response.output_text).toContain('FAKE_TOOL_OK fake_plugin_tool_0005');
    expect((response as unknown as { tool_search: { requests: number } }).tool_search.requests).toBe(3);
  });

  it('streams the documented events and the final response', async () => {
    const { client } = await h.gateway('directory', { upstream: h.upstream(kind) });
    const stream = await client.responses.create({ model: 'm', input: script('fake_plugin_tool_0005'), stream: true });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.output_item.added');
    expect(text).toContain('FAKE_TOOL_OK fake_plugin_tool_0005');
  });

  it('round-trips a client function call with previous_response_id (same session)', async () => {
    const { client } = await h.gateway('tools', { upstream: h.upstream(kind) });
    const first = await client.responses.create({ model: 'm', input: script('client_lookup'), tools: lookup });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' && call.name).toBe('client_lookup');
    const sessionOf = (r: unknown) => (r as { tool_search: { session_id: string } }).tool_search.session_id;
    const second = await client.responses.create({
      model: 'm',
      previous_response_id: first.id,
      tools: lookup,
      input: [
        {
          type: 'function_call_output',
          call_id: call!.type === 'function_call' ? call!.call_id : '',
          output: 'FAKE_TOOL_OK client_lookup {}',
        },
      ],
    });
    expect(second.output_text).toContain('FAKE_TOOL_OK client_lookup');
    expect(sessionOf(second)).toBe(sessionOf(first));
  });

  it('streams a client function call as function_call items (the stream helper assembles it)', async () => {
    const { client } = await h.gateway('tools', { upstream: h.upstream(kind) });
    const stream = client.responses.stream({ model: 'm', input: script('client_lookup'), tools: lookup });
    const final = await stream.finalResponse();
    expect(final.output.find((item) => item.type === 'function_call')).toMatchObject({ name: 'client_lookup' });
  });
});

describe('POST /v1/responses errors and headers', () => {
  it('refuses an unknown previous_response_id (coded 404) and a non-function tool (coded 400)', async () => {
    const { client } = await h.gateway('tools');
    await expect(
      client.responses.create({ model: 'm', input: 'hi', previous_response_id: 'resp_nope' }),
    ).rejects.toMatchObject({ status: 404, code: 'RESPONSE_NOT_FOUND', param: '/previous_response_id' });
    await expect(
      client.responses.create({ model: 'm', input: 'hi', tools: [{ type: 'web_search' }] }),
    ).rejects.toMatchObject({ status: 400, code: 'REQUEST_INVALID' });
    await expect(
      client.responses.create({ model: 'm', input: [{ type: 'image', url: 'x' }] as never }),
    ).rejects.toMatchObject({ status: 400, code: 'REQUEST_INVALID' });
  });

  it('takes x-session-id and x-agent-id', async () => {
    const { client } = await h.gateway('tools');
    const response = await client.responses.create(
      { model: 'm', input: script('fake_plugin_tool_0005') },
      { headers: { 'x-session-id': 'resp-session', 'x-agent-id': 'a1' } },
    );
    expect((response as unknown as { tool_search: { session_id: string } }).tool_search.session_id).toBe(
      'resp-session',
    );
  });

  it('aborts the turn and its tool call when the client disconnects mid-stream', async () => {
    const seen = { started: 0, aborted: 0 };
    const { client } = await h.gateway('direct', { plugins: [slowTool(seen)] });
    const stream = await client.responses.create({ model: 'm', input: script('slow_tool'), stream: true });
    const first = await stream[Symbol.asyncIterator]().next();
    expect(first.value?.type).toBe('response.created');
    await until(() => seen.started === 1);
    stream.controller.abort();
    await until(() => seen.aborted === 1);
  });
});
