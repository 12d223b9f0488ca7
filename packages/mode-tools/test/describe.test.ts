import { createKernel, ErrorCode, type KernelPlugin, type RunEvent } from '@tool-search/kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { toolsModePlugin } from '../src/index.js';
import { control, denyPolicyPlugin, errorCode, sourcePlugin, text } from './fixtures.js';

const kernels: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

async function withEvents() {
  const events: RunEvent[] = [];
  const recorder: KernelPlugin = {
    name: 'test-recorder',
    apply: ({ hooks }) => hooks.runEvent.tap((event) => void events.push(event)),
  };
  const kernel = createKernel({ plugins: [sourcePlugin(), denyPolicyPlugin(), recorder, toolsModePlugin()] });
  kernels.push(kernel);
  const run = await kernel.createRun();
  return { exposure: await run.exposure('tools'), events };
}

describe('tool_describe', () => {
  it('returns the exact input schema', async () => {
    const { exposure } = await withEvents();
    const result = await control(exposure, 'tool_describe', { id: 'core:core:read_file' });
    expect(result.structuredContent).toMatchObject({
      id: 'core:core:read_file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    });
    expect(text(result)).toContain('"required":["path"]');
  });

  it('emits a describe event', async () => {
    const { exposure, events } = await withEvents();
    await control(exposure, 'tool_describe', { id: 'core:core:read_file' });
    expect(events).toContainEqual({
      type: 'describe',
      toolId: 'core:core:read_file',
      requested: 'core:core:read_file',
      origin: 'tool_call',
    });
  });

  it('says unknown tool id and suggests three close ids', async () => {
    const { exposure, events } = await withEvents();
    const result = await control(exposure, 'tool_describe', { id: 'core:core:read_fil' });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe(ErrorCode.UNKNOWN_TOOL);
    const suggestions = (result.structuredContent as { error: { suggestions: string[] } }).error.suggestions;
    expect(suggestions).toHaveLength(3);
    expect(suggestions[0]).toBe('core:core:read_file');
    expect(events).toContainEqual({
      type: 'describe',
      toolId: null,
      requested: 'core:core:read_fil',
      origin: 'tool_call',
    });
  });

  it.each(['core:core:secret_tool', 'secret_tool'])('treats a tool dropped by policy as unknown (%s)', async (id) => {
    const { exposure } = await withEvents();
    const result = await control(exposure, 'tool_describe', { id });
    expect(errorCode(result)).toBe(ErrorCode.UNKNOWN_TOOL);
    expect(
      JSON.stringify((result.structuredContent as { error: { suggestions: string[] } }).error.suggestions),
    ).not.toContain('secret');
    expect(text(result)).not.toContain('Reveal');
  });

  it('reports a missing id as an argument error result', async () => {
    const { exposure } = await withEvents();
    expect(errorCode(await control(exposure, 'tool_describe', {}))).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
  });
});
