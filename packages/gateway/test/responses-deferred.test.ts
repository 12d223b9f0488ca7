/**
 * `/v1/responses` with `tool_search` and `defer_loading` functions (top-level and in a namespace), driven with the
 * official OpenAI client over HTTP against an OpenAI-compatible upstream that lacks tool search: the gateway serves it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { harness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const TARGET = 'tracker_file_ticket_07';
const ask = `tool search qa check target=${TARGET} args={"title":"x"}`;
const fn = (i: number) => ({
  type: 'function',
  name: `tracker_file_ticket_${String(i).padStart(2, '0')}`,
  description: `File a ticket in tracker queue ${i}`,
  parameters: { type: 'object', properties: { title: { type: 'string' } } },
  defer_loading: true,
});
const tools = [
  {
    type: 'function',
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
  { type: 'tool_search' },
  {
    type: 'namespace',
    name: 'tracker',
    description: 'Issue tracker',
    tools: Array.from({ length: 20 }, (_, i) => fn(i)),
  },
  fn(30),
] as unknown as OpenAI.Responses.Tool[];

const arrayText = (raw: string, key: 'messages' | 'tools') => {
  const start = raw.indexOf(`"${key}":[`) + key.length + 3;
  const end = key === 'messages' ? raw.indexOf(',"tools":', start) : raw.lastIndexOf(']') + 1;
  return raw.slice(start, end);
};

describe('/v1/responses with tool_search and deferred functions', () => {
  it('serves the search, returns tool_search_call / tool_search_output items, and keeps the prompt prefix', async () => {
    const { client } = await h.gateway('tools');
    const from = h.openai.requests.length;
    const first = await client.responses.create({ model: 'm', input: ask, tools });
    const items = first.output as unknown as {
      type: string;
      name?: string;
      call_id?: string;
      tools?: { name: string }[];
      arguments?: unknown;
    }[];
    expect(items.map((i) => i.type)).toEqual(['tool_search_call', 'tool_search_output', 'function_call']);
    expect(items[0]).toMatchObject({ execution: 'server', arguments: { query: TARGET } });
    expect(items[1]!.tools!.map((t) => t.name)).toContain(TARGET);
    expect(items[1]!.call_id).toBe(items[0]!.call_id);
    expect(items[2]).toMatchObject({ name: TARGET, arguments: '{"title":"x"}' });
    expect((first as unknown as { tool_search: { deferral: { path: string } } }).tool_search.deferral.path).toBe(
      'served',
    );

    const second = await client.responses.create({
      model: 'm',
      previous_response_id: first.id,
      tools,
      input: [{ type: 'function_call_output', call_id: items[2]!.call_id!, output: `FAKE_TOOL_OK ${TARGET}` }],
    });
    expect(second.output_text).toContain(`FAKE_TOOL_OK ${TARGET}`);

    const raws = h.received('openai', from).map((r) => r.raw);
    expect(raws).toHaveLength(3);
    expect(arrayText(raws[0]!, 'tools')).not.toContain('tracker_file_ticket');
    for (let i = 1; i < raws.length; i++) {
      for (const key of ['messages', 'tools'] as const)
        expect(arrayText(raws[i]!, key).startsWith(arrayText(raws[i - 1]!, key).slice(0, -1)), `${key} ${i}`).toBe(
          true,
        );
    }
  });

  it('replays the search items sent back as input, and refuses deferred functions without tool_search', async () => {
    const { client } = await h.gateway('tools');
    const first = await client.responses.create({ model: 'm', input: ask, tools });
    const call = first.output.find((i) => i.type === 'function_call') as { call_id: string };
    const replay = await client.responses.create({
      model: 'm',
      tools,
      input: [
        { role: 'user', content: ask },
        ...(first.output as unknown as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: call.call_id, output: `FAKE_TOOL_OK ${TARGET}` },
      ],
    });
    expect(replay.output_text).toContain(`FAKE_TOOL_OK ${TARGET}`);
    await expect(
      client.responses.create({ model: 'm', input: 'hi', tools: [fn(1)] as unknown as OpenAI.Responses.Tool[] }),
    ).rejects.toMatchObject({ status: 400, code: 'REQUEST_INVALID' });
  });
});
