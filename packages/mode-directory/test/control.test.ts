import { createKernel, ErrorCode, type KernelPlugin, type RunEvent } from '@tool-search/kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { directoryModePlugin } from '../src/index.js';
import { control, denyPolicyPlugin, directoryRun, errorCode, sourcePlugin, text } from './fixtures.js';

const kernels: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

async function open() {
  const opened = await directoryRun();
  kernels.push(opened.kernel);
  return opened;
}

interface Hits {
  hits: { id: string }[];
}

describe('control tools in directory mode', () => {
  it('tool_search finds catalog tools and emits a search event', async () => {
    const events: RunEvent[] = [];
    const recorder: KernelPlugin = {
      name: 'test-recorder',
      apply: ({ hooks }) => hooks.runEvent.tap((event) => void events.push(event)),
    };
    const kernel = createKernel({ plugins: [sourcePlugin(), denyPolicyPlugin(), recorder, directoryModePlugin()] });
    kernels.push(kernel);
    const exposure = await (await kernel.createRun()).exposure('directory');
    const result = await control(exposure, 'tool_search', { query: 'weather forecast' });
    expect((result.structuredContent as Hits).hits[0]?.id).toBe('plugin:weather:weather_forecast');
    expect(events.find((event) => event.type === 'search')).toMatchObject({
      origin: 'tool_call',
      queries: ['weather forecast'],
    });
  });

  it('tool_search never returns a tool dropped by policy', async () => {
    const { exposure } = await open();
    const result = await control(exposure, 'tool_search', {
      queries: ['secret_tool', 'reveal secret credentials vault'],
      limit: 20,
    });
    const ids = (result.structuredContent as { results: Hits[] }).results.flatMap((entry) =>
      entry.hits.map((hit) => hit.id),
    );
    expect(ids).not.toContain('core:core:secret_tool');
    expect(text(result)).not.toContain('Reveal');
  });

  it('tool_describe returns the schema by id or name', async () => {
    const { exposure } = await open();
    for (const id of ['core:core:write_file', 'write_file']) {
      const result = await control(exposure, 'tool_describe', { id });
      expect(result.structuredContent).toMatchObject({
        id: 'core:core:write_file',
        inputSchema: { required: ['path', 'text'] },
      });
    }
  });

  it.each(['core:core:secret_tool', 'secret_tool'])(
    'tool_describe treats a dropped tool as unknown (%s)',
    async (id) => {
      const { exposure } = await open();
      const result = await control(exposure, 'tool_describe', { id });
      expect(errorCode(result)).toBe(ErrorCode.UNKNOWN_TOOL);
      const suggestions = (result.structuredContent as { error: { suggestions: string[] } }).error.suggestions;
      expect(suggestions).toHaveLength(3);
      expect(suggestions).not.toContain('core:core:secret_tool');
    },
  );

  it('tool_call runs a hidden tool with origin tool_call', async () => {
    const { exposure, calls } = await open();
    const result = await control(exposure, 'tool_call', { id: 'mcp:gitlab:search_issues', args: { q: 'bug' } });
    expect(text(result)).toBe('FAKE_TOOL_OK search_issues {"q":"bug"}');
    expect(calls).toEqual([{ toolId: 'mcp:gitlab:search_issues', origin: 'tool_call', status: 'ok' }]);
  });

  it.each(['core:core:secret_tool', 'secret_tool'])('tool_call fails closed for a dropped tool (%s)', async (id) => {
    const { exposure, calls } = await open();
    expect(errorCode(await control(exposure, 'tool_call', { id, args: {} }))).toBe(ErrorCode.UNKNOWN_TOOL);
    expect(calls).toEqual([]);
  });

  it('tool_call returns a block as the result', async () => {
    const { exposure } = await open();
    const result = await control(exposure, 'tool_call', { id: 'plugin:cleanup:dangerous_delete', args: {} });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe(ErrorCode.TOOL_CALL_BLOCKED);
  });

  it('tool_call returns argument validation errors as the result', async () => {
    const { exposure } = await open();
    expect(errorCode(await control(exposure, 'tool_call', { id: 'core:core:read_file', args: {} }))).toBe(
      ErrorCode.TOOL_ARGUMENTS_INVALID,
    );
  });

  it('tool_call refuses a client tool and says to call it directly', async () => {
    const { exposure, calls } = await open();
    const result = await control(exposure, 'tool_call', { id: 'browser_click', args: {} });
    expect(errorCode(result)).toBe(ErrorCode.CLIENT_TOOL_NOT_EXECUTABLE);
    // Refused by the kernel (no front end here takes client calls); nothing ran.
    expect(calls.map((call) => call.status)).toEqual(['error']);
  });
});
