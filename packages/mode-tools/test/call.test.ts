import { createKernel, ErrorCode, type CallOrigin, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { afterEach, describe, expect, it } from 'vitest';
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

  it('does not route a catalog tool name that is not exposed', async () => {
    const { exposure } = await open();
    const outcome = await exposure.call('read_file', { path: 'a' });
    expect(outcome).toMatchObject({ status: 'error', error: { code: ErrorCode.UNKNOWN_TOOL } });
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
