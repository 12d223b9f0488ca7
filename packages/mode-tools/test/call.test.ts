import { createKernel, ErrorCode, type CallOrigin, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeTool } from '@tool-search/testing';
import { toolsModePlugin } from '../src/index.js';
import { blockPlugin, control, denyPolicyPlugin, errorCode, sourcePlugin, text, TOOLS } from './fixtures.js';

const kernels: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

async function open(tools: readonly ToolDefinition[] = TOOLS) {
  const calls: { toolId: string; origin: CallOrigin; status: string }[] = [];
  const recorder: KernelPlugin = {
    name: 'test-recorder',
    apply: ({ hooks }) =>
      hooks.afterToolCall.tap(
        (call, outcome) => void calls.push({ toolId: call.tool.id, origin: call.origin, status: outcome.status }),
      ),
  };
  const kernel = createKernel({
    plugins: [sourcePlugin(tools), denyPolicyPlugin(), blockPlugin(), recorder, toolsModePlugin()],
  });
  kernels.push(kernel);
  const run = await kernel.createRun();
  return { run, exposure: await run.exposure('tools'), calls };
}

describe('tool_call', () => {
  it('runs the tool through run.call with origin tool_call', async () => {
    const { exposure, calls } = await open();
    const result = await control(exposure, 'tool_call', {
      id: 'plugin:weather:weather_forecast',
      args: { city: 'Oslo' },
    });
    expect(text(result)).toBe('FAKE_TOOL_OK weather_forecast {"city":"Oslo"}');
    expect(calls).toEqual([{ toolId: 'plugin:weather:weather_forecast', origin: 'tool_call', status: 'ok' }]);
  });

  it('accepts args sent as a JSON string', async () => {
    const { exposure } = await open();
    const result = await control(exposure, 'tool_call', { id: 'core:core:read_file', args: '{"path":"a.txt"}' });
    expect(text(result)).toBe('FAKE_TOOL_OK read_file {"path":"a.txt"}');
  });

  it('returns a beforeToolCall block as the result, without running the tool', async () => {
    const { exposure, calls } = await open();
    const result = await control(exposure, 'tool_call', { id: 'plugin:cleanup:dangerous_delete', args: {} });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe(ErrorCode.TOOL_CALL_BLOCKED);
    expect(result.structuredContent).toMatchObject({ error: { by: 'test-guard', reason: 'deletes are not approved' } });
    expect(text(result)).not.toContain('FAKE_TOOL_OK');
    expect(calls).toEqual([{ toolId: 'plugin:cleanup:dangerous_delete', origin: 'tool_call', status: 'blocked' }]);
  });

  it('returns argument validation errors as the result', async () => {
    const { exposure, calls } = await open();
    const result = await control(exposure, 'tool_call', { id: 'core:core:write_file', args: { path: 'a.txt' } });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
    expect(calls).toEqual([]);
  });

  it.each(['core:core:secret_tool', 'secret_tool'])('fails closed for a tool dropped by policy (%s)', async (id) => {
    const { exposure, calls } = await open();
    const result = await control(exposure, 'tool_call', { id, args: {} });
    expect(errorCode(result)).toBe(ErrorCode.UNKNOWN_TOOL);
    expect(JSON.stringify(result)).not.toContain('FAKE_TOOL_OK');
    expect(
      JSON.stringify((result.structuredContent as { error: { suggestions: string[] } }).error.suggestions),
    ).not.toContain('secret');
    expect(calls).toEqual([]);
  });

  it('says unknown tool id and suggests close ids for a typo', async () => {
    const { exposure } = await open();
    const result = await control(exposure, 'tool_call', { id: 'core:core:read_fiel', args: {} });
    expect(errorCode(result)).toBe(ErrorCode.UNKNOWN_TOOL);
    expect((result.structuredContent as { error: { suggestions: string[] } }).error.suggestions).toContain(
      'core:core:read_file',
    );
  });

  it('refuses a client tool and tells the model to call it directly', async () => {
    const { exposure, calls } = await open();
    const result = await control(exposure, 'tool_call', { id: 'client:client:browser_click', args: {} });
    expect(errorCode(result)).toBe(ErrorCode.CLIENT_TOOL_NOT_EXECUTABLE);
    expect(text(result)).toContain('browser_click');
    // The kernel decides (no front end here takes client calls): the call went through the guards, and nothing ran.
    expect(calls).toEqual([{ toolId: 'client:client:browser_click', origin: 'tool_call', status: 'error' }]);
  });

  it('refuses a tool the caller must execute (pending outcome)', async () => {
    const external: ToolDefinition = {
      name: 'external_job',
      source: 'plugin',
      owner: 'jobs',
      description: 'Run a job elsewhere.',
      inputSchema: { type: 'object' },
    };
    const { exposure } = await open([...TOOLS, external]);
    const result = await control(exposure, 'tool_call', { id: 'plugin:jobs:external_job', args: {} });
    expect(errorCode(result)).toBe(ErrorCode.CLIENT_TOOL_NOT_EXECUTABLE);
  });

  it('reports a tool that fails while running as an error result', async () => {
    const broken: ToolDefinition = {
      name: 'broken',
      source: 'plugin',
      owner: 'flaky',
      description: 'A tool whose backend went away.',
      inputSchema: { type: 'object' },
      execute: () => {
        throw new Error('connection closed');
      },
    };
    const { exposure } = await open([...TOOLS, broken]);
    const result = await control(exposure, 'tool_call', { id: 'plugin:flaky:broken', args: {} });
    expect(errorCode(result)).toBe(ErrorCode.TOOL_EXECUTION_FAILED);
  });

  it('reports a missing id as an argument error result', async () => {
    const { exposure } = await open();
    expect(errorCode(await control(exposure, 'tool_call', { args: {} }))).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
  });

  it('keeps direct-only tools callable directly', async () => {
    const { exposure, calls } = await open();
    const outcome = await exposure.call('message', { hi: 1 });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: { content: [{ type: 'text', text: 'FAKE_TOOL_OK message {"hi":1}' }] },
    });
    expect(calls[0]?.origin).toBe('direct');
  });
});

// Issue 44 item 4: a call before the load answers with the schema, and the next call by that name runs.
describe('a catalog tool called by name before it was loaded', () => {
  it('answers with its input schema and a hint, runs nothing, and loads it', async () => {
    const { exposure, calls } = await open();
    const outcome = await exposure.call('weather_forecast', { town: 'Oslo' });
    expect(outcome).toMatchObject({
      status: 'error',
      toolId: 'plugin:weather:weather_forecast',
      error: { code: ErrorCode.TOOL_NOT_LOADED },
    });
    const result = outcome.status === 'error' ? outcome.result : undefined;
    expect(result?.isError).toBe(true);
    const [hint, schema] = text(result!).split('\n');
    expect(hint).toBe(
      'Error TOOL_NOT_LOADED: weather_forecast was not loaded; its schema is below; call it again with these arguments.',
    );
    expect(JSON.parse(schema!)).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
    expect(calls).toEqual([]);
    expect(exposure.loaded()).toEqual([
      expect.objectContaining({ name: 'weather_forecast', toolId: 'plugin:weather:weather_forecast', kind: 'tool' }),
    ]);
    expect(exposure.has('weather_forecast')).toBe(true);

    const again = await exposure.call('weather_forecast', { city: 'Oslo' });
    expect(again).toMatchObject({
      status: 'ok',
      result: { content: [{ text: 'FAKE_TOOL_OK weather_forecast {"city":"Oslo"}' }] },
    });
    expect(calls).toEqual([{ toolId: 'plugin:weather:weather_forecast', origin: 'direct', status: 'ok' }]);
    expect(exposure.loaded()).toHaveLength(1);
  });

  it('loads by id too, under the name the model called', async () => {
    const { exposure } = await open();
    const first = await exposure.call('core:core:read_file', { path: 'a' });
    expect(first).toMatchObject({ status: 'error', error: { code: ErrorCode.TOOL_NOT_LOADED } });
    await expect(exposure.call('core:core:read_file', { path: 'a' })).resolves.toMatchObject({ status: 'ok' });
    expect(exposure.loaded().map((view) => view.name)).toEqual(['core:core:read_file']);
  });

  it('a tool the policy dropped answers exactly as an unknown name: no schema, nothing loaded', async () => {
    const { exposure, calls } = await open();
    // The same run without the tool at all: what an unknown name answers.
    const absent = await open(TOOLS.filter((tool) => tool.name !== 'secret_tool'));
    const shape = async (from: typeof exposure) =>
      JSON.stringify({ ...(await from.call('secret_tool', {})), callId: '' });
    const denied = await shape(exposure);
    expect(denied).toBe(await shape(absent.exposure));
    expect(denied).toContain(ErrorCode.UNKNOWN_TOOL);
    expect(denied).not.toMatch(/TOOL_NOT_LOADED|properties|vault/);
    expect(exposure.loaded()).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("a hidden tool (an MCP App's app-only one) answers as unknown by name and by id, and never loads", async () => {
    const hidden = fakeTool('cart_update', 'mcp', 'shop', 'Update the cart (app only).', { catalogMode: 'hidden' });
    const { exposure, calls } = await open([...TOOLS, hidden]);
    for (const name of ['cart_update', 'mcp:shop:cart_update'])
      await expect(exposure.call(name, {})).resolves.toMatchObject({ error: { code: ErrorCode.UNKNOWN_TOOL } });
    expect(exposure.loaded()).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('a blocked tool loads, and its next call is still blocked by the guard', async () => {
    const { exposure, calls } = await open();
    await exposure.call('dangerous_delete', {});
    await expect(exposure.call('dangerous_delete', {})).resolves.toMatchObject({ status: 'blocked' });
    expect(calls).toEqual([{ toolId: 'plugin:cleanup:dangerous_delete', origin: 'direct', status: 'blocked' }]);
  });
});

// Issue 16 item 12: the status of the inner call is the status of the model's tool_call.
describe('tool_call status at the top level', () => {
  it.each([
    ['plugin:cleanup:dangerous_delete', 'blocked'],
    ['core:core:secret_tool', 'error'],
    ['core:core:write_file', 'error'],
    ['plugin:weather:weather_forecast', 'ok'],
  ])('%s → %s', async (id, status) => {
    const { exposure } = await open();
    const outcome = await exposure.call('tool_call', {
      id,
      args: id.endsWith('write_file') ? { path: 'a.txt' } : id.endsWith('forecast') ? { city: 'Oslo' } : {},
    });
    expect(outcome.status).toBe(status);
    expect(outcome.toolId).toBe('control:tools:tool_call');
  });

  it('a failing tool_call reports its error code at the top level', async () => {
    const { exposure } = await open();
    await expect(exposure.call('tool_call', { id: 'core:core:read_fiel', args: {} })).resolves.toMatchObject({
      status: 'error',
      error: { code: ErrorCode.UNKNOWN_TOOL },
    });
  });
});
