/**
 * Issue 44 item 4, a call before the load: the model calls a catalog tool it never loaded. The gateway answers with
 * the tool's input schema and a one-line hint (`TOOL_NOT_LOADED`, a tool message: the turn goes on), the next
 * request's tools include it, and the model's next call by that name runs. Driven by the official OpenAI client
 * (chat completions) and Anthropic client (`/v1/messages` with `defer_loading` tools) over HTTP, against the scripted
 * mock OpenAI upstream (`early=1`: the mock calls the target by name first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { createKernel, type JsonSchema, type KernelPlugin } from '@tool-search/kernel';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';
import { nativeModePlugin } from '@tool-search/mode-native';
import { harness, type Harness } from './helpers.js';

let h: Harness;
let targetSchema: JsonSchema;
beforeAll(async () => {
  h = await harness();
  const kernel = createKernel({ plugins: [fakeCatalogPlugin({ tools: 36, core: true })] });
  const run = await kernel.createRun();
  targetSchema = run.tool(TARGET)!.inputSchema;
  await kernel.close();
});
afterAll(() => h.close());

const TARGET = 'fake_plugin_tool_0005';
const DENIED = 'fake_plugin_tool_0006';
const early = (target: string) => [
  {
    role: 'user' as const,
    content: `tool search qa check target=${target} args=${JSON.stringify(argsFor(targetSchema))} early=1`,
  },
];

/** Arguments the schema accepts: each required property with a value of its type (the mock sends what it is told). */
function argsFor(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; enum?: unknown[] }>;
  const sample = (p: { type?: string; enum?: unknown[] }) =>
    p.enum?.[0] ??
    ({ number: 1, integer: 1, boolean: true, array: [], object: {} } as Record<string, unknown>)[p.type ?? ''] ??
    'x';
  return Object.fromEntries(((schema.required ?? []) as string[]).map((key) => [key, sample(properties[key] ?? {})]));
}

type ChatBody = {
  tools?: { function: { name: string; parameters?: unknown } }[];
  messages: { role: string; content?: unknown }[];
};
type Field = { mode: string; path?: string; tool_calls: { name: string; status: string; toolId: string }[] };

const denyPolicy: KernelPlugin = {
  name: 'test-deny',
  apply: ({ hooks }) => hooks.filterPolicy.tap((tools) => tools.filter((tool) => tool.name !== DENIED)),
};

async function chatTurn(mode: string, target: string, plugins: KernelPlugin[] = []) {
  const { client } = await h.gateway(mode, { plugins });
  const from = h.openai.requests.length;
  const completion = await client.chat.completions.create({ model: 'mock-model', messages: early(target) });
  const bodies = h.received('openai', from).map((r) => r.body as unknown as ChatBody);
  const field = (completion as unknown as { tool_search: Field }).tool_search;
  return { completion, bodies, field };
}

const names = (body: ChatBody) => (body.tools ?? []).map((t) => t.function.name);
const toolMessage = (body: ChatBody) => String(body.messages.findLast((m) => m.role === 'tool')?.content);

describe.each(['tools', 'native'])('%s mode, OpenAI-compatible upstream', (mode) => {
  it('a catalog tool called before it was loaded answers with its schema, is loaded, and the next call runs', async () => {
    const { completion, bodies, field } = await chatTurn(mode, TARGET, [nativeModePlugin()]);
    expect(field.mode).toBe('tools');
    if (mode === 'native') expect(field.path).toBe('fallback-tools');
    expect(field.tool_calls.map((c) => [c.name, c.status, c.toolId])).toEqual([
      [TARGET, 'error', `plugin:fake-catalog:${TARGET}`],
      [TARGET, 'ok', `plugin:fake-catalog:${TARGET}`],
    ]);
    expect(completion.choices[0]?.message.content).toContain(`FAKE_TOOL_OK ${TARGET}`);

    expect(bodies).toHaveLength(3);
    expect(names(bodies[0]!)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    // The answer: the hint on one line, then the tool's input schema as JSON.
    const [hint, schema] = toolMessage(bodies[1]!).split('\n');
    expect(hint).toBe(
      `Error TOOL_NOT_LOADED: ${TARGET} was not loaded; its schema is below; call it again with these arguments.`,
    );
    expect(JSON.parse(schema!)).toEqual(targetSchema);
    // The next request offers it, appended: the earlier tools stay a byte prefix (prompt cache).
    expect(names(bodies[1]!)).toEqual(['tool_search', 'tool_describe', 'tool_call', TARGET]);
    expect(bodies[1]!.tools!.at(-1)!.function.parameters).toEqual(JSON.parse(schema!));
    expect(names(bodies[2]!)).toEqual(names(bodies[1]!));
    expect(toolMessage(bodies[2]!)).toContain(`FAKE_TOOL_OK ${TARGET}`);
  });
});

describe('policy', () => {
  it('a tool the policy denies answers exactly like a tool that does not exist: no schema, nothing loaded', async () => {
    const denied = await chatTurn('tools', DENIED, [denyPolicy]);
    const absent = await chatTurn('tools', 'fake_plugin_tool_9999', [denyPolicy]);
    const answer = (turn: typeof denied, name: string) => toolMessage(turn.bodies[1]!).replaceAll(name, '<name>');
    expect(answer(denied, DENIED)).toBe(answer(absent, 'fake_plugin_tool_9999'));
    expect(answer(denied, DENIED)).toMatch(/^Error UNKNOWN_TOOL: /);
    expect(answer(denied, DENIED)).not.toMatch(/TOOL_NOT_LOADED|properties/);
    for (const body of denied.bodies) expect(names(body)).not.toContain(DENIED);
    expect(denied.field.tool_calls[0]).toMatchObject({ name: DENIED, status: 'error' });
    expect(denied.field.tool_calls.some((c) => c.status === 'ok' && c.name === DENIED)).toBe(false);
  });
});

describe('client deferred tools (/v1/messages with defer_loading), served by the gateway', () => {
  const DEFERRED = 'mcp__tracker__file_ticket_07';
  const schema = { type: 'object', properties: { title: { type: 'string', description: 'ticket title' } } };
  const tools = [
    {
      name: 'Read',
      description: 'Read a file',
      input_schema: { type: 'object', properties: { path: { type: 'string' } } },
    },
    { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
    ...Array.from({ length: 12 }, (_, i) => ({
      name: `mcp__tracker__file_ticket_${String(i).padStart(2, '0')}`,
      description: `File a ticket in tracker queue ${i}`,
      input_schema: schema,
      defer_loading: true,
    })),
  ] as Anthropic.Messages.ToolUnion[];

  it('an unloaded deferred tool answers with its schema, is appended, and the next call goes to the client', async () => {
    const { server } = await h.gateway('tools');
    const client = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
    const from = h.openai.requests.length;
    const message = await client.messages.create({
      model: 'm',
      max_tokens: 512,
      tools,
      messages: [{ role: 'user', content: `tool search qa check target=${DEFERRED} args={"title":"x"} early=1` }],
    });
    // The second call is the client's to run: handed back as a tool_use, with the arguments the schema asked for.
    const use = message.content.find((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use');
    expect(use).toMatchObject({ name: DEFERRED, input: { title: 'x' } });
    expect(message.stop_reason).toBe('tool_use');
    expect((message as unknown as { tool_search: { deferral: unknown } }).tool_search.deferral).toEqual({
      path: 'served',
      searches: 0,
      loaded: [DEFERRED],
    });

    const bodies = h.received('openai', from).map((r) => r.body as unknown as ChatBody);
    expect(bodies).toHaveLength(2);
    expect(names(bodies[0]!)).not.toContain(DEFERRED);
    const [hint, sent] = toolMessage(bodies[1]!).split('\n');
    expect(hint).toBe(
      `Error TOOL_NOT_LOADED: ${DEFERRED} was not loaded; its schema is below; call it again with these arguments.`,
    );
    expect(JSON.parse(sent!)).toEqual(schema);
    expect(names(bodies[1]!).at(-1)).toBe(DEFERRED);
    expect(names(bodies[1]!).slice(0, -1)).toEqual(names(bodies[0]!));
  });
});
