import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type KernelPlugin, type RunApi, type ToolResult } from '@tool-search/kernel';
import { createControlTools, CONTROL_TOOL_NAMES } from '@tool-search/control-tools';

const source: KernelPlugin = {
  name: 'src',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) =>
      sink.add([
        {
          name: 'get_weather',
          source: 'plugin',
          owner: 'weather',
          description: 'Current weather for a city',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          execute: (args) => ({ content: [{ type: 'text', text: `sunny in ${String(args.city)}` }] }),
        },
        {
          name: 'ask_user',
          source: 'client',
          owner: 'client',
          description: 'Ask the user a question',
          inputSchema: { type: 'object' },
        },
      ]),
    ),
};

async function setup() {
  const run = await createKernel({ plugins: [source] }).createRun();
  const tools = createControlTools({ searchDefaultLimit: 8, maxSearchLimit: 20, callHint: 'Run it with tool_call.' });
  const handler = (name: string) => tools.find((t) => t.name === name)!.handler!;
  const ctx = { run: run as RunApi, signal: new AbortController().signal };
  return { tools, call: (name: string, args: Record<string, unknown>) => handler(name)(args, ctx) };
}

const code = (result: ToolResult) =>
  (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;

describe('control tools', () => {
  it('are the three named tools, frozen so exposures render byte-identically', async () => {
    const { tools } = await setup();
    expect(tools.map((t) => t.name)).toEqual([
      CONTROL_TOOL_NAMES.search,
      CONTROL_TOOL_NAMES.describe,
      CONTROL_TOOL_NAMES.call,
    ]);
    expect(Object.isFrozen(tools[0]!.inputSchema)).toBe(true);
  });

  it('search finds a tool and describe returns its exact schema', async () => {
    const { call } = await setup();
    const found = await call('tool_search', { query: 'weather in a city' });
    expect(JSON.stringify(found.structuredContent)).toContain('plugin:weather:get_weather');
    const described = await call('tool_describe', { id: 'plugin:weather:get_weather' });
    expect((described.structuredContent as { inputSchema: unknown }).inputSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
  });

  it('tool_call runs through the run and reports argument errors as results', async () => {
    const { call } = await setup();
    const ok = await call('tool_call', { id: 'plugin:weather:get_weather', args: { city: 'Oslo' } });
    expect(ok.isError).toBeFalsy();
    expect(JSON.stringify(ok)).toContain('sunny in Oslo');
    const bad = await call('tool_call', { id: 'plugin:weather:get_weather', args: {} });
    expect(bad.isError).toBe(true);
    expect(code(bad)).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
  });

  it('refuses client tools and unknown ids with coded results', async () => {
    const { call } = await setup();
    expect(code(await call('tool_call', { id: 'client:client:ask_user', args: {} }))).toBe(
      ErrorCode.CLIENT_TOOL_NOT_EXECUTABLE,
    );
    expect(code(await call('tool_describe', { id: 'get_wether' }))).toBe(ErrorCode.UNKNOWN_TOOL);
    expect(code(await call('tool_search', {}))).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
  });

  it('accepts args sent as a JSON string', async () => {
    const { call } = await setup();
    const result = await call('tool_call', { id: 'plugin:weather:get_weather', args: '{"city":"Rome"}' });
    expect(JSON.stringify(result)).toContain('sunny in Rome');
  });
});
