import { asSchema, type Tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { fakeTool, toolSource } from '@tool-search/testing';
import { AiSdkErrors, createToolSearch } from '@tool-search/ai-sdk';

const options = { toolCallId: 't1', messages: [], context: {} } as never;
const run = (tool: Tool | undefined, input: unknown) => tool!.execute!(input as never, options) as Promise<unknown>;

describe('createToolSearch', () => {
  it('direct: every tool, provider-safe names that map back to ids, JSON Schema as given', async () => {
    const odd = fakeTool('files.read/v2', 'plugin', 'odd', 'Read a file (a name providers refuse)', {
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    });
    const search = await createToolSearch({
      config: { plugins: { 'fake-catalog': { tools: 5 } } },
      plugins: [toolSource([odd])],
      mode: 'direct',
    });
    try {
      const names = Object.keys(search.tools);
      expect(names.length).toBe(search.run.catalog.length);
      expect(names.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
      const oddName = search.toolName('plugin:odd:files.read/v2')!;
      expect(oddName).toMatch(/^files_read_v2_[0-9a-f]{8}$/);
      expect(await asSchema(search.tools[oddName]!.inputSchema).jsonSchema).toEqual(odd.inputSchema);
      expect(JSON.stringify(await run(search.tools[oddName], { path: 'a.txt' }))).toContain(
        'FAKE_TOOL_OK files.read/v2',
      );
      // Hostile arguments are the run's to refuse, with the project's code.
      await expect(run(search.tools[oddName], { path: { $ne: 1 } })).rejects.toMatchObject({
        code: ErrorCode.TOOL_ARGUMENTS_INVALID,
      });
      await expect(run(search.tools[oddName], 'not an object')).rejects.toMatchObject({
        code: ErrorCode.TOOL_ARGUMENTS_INVALID,
      });
    } finally {
      await search.close();
    }
  });

  it('deferred: catalog tools defer loading, direct-only tools do not, the search tool ranks with the run', async () => {
    const pinned = fakeTool('pinned_status', 'plugin', 'ops', 'Always visible status tool', {
      catalogMode: 'direct-only',
    });
    const search = await createToolSearch({
      config: { plugins: { 'fake-catalog': { tools: 30 } } },
      plugins: [toolSource([pinned])],
    });
    try {
      expect(search.tools['pinned_status']!.deferLoading).toBeUndefined();
      expect(search.tools['read']!.deferLoading).toBe(true);
      expect(search.tools['tool_search']!.deferLoading).toBeUndefined();
      expect(search.tools['tool_search']!.description).toMatch(/matching a query/);
    } finally {
      await search.close();
    }
  });

  it('approvals: a call the config requires approval for is blocked without an approver (fail closed) and runs with one', async () => {
    const config = { plugins: { 'fake-catalog': { tools: 0 } }, tools: { approvals: { require: ['write'] } } };
    const closed = await createToolSearch({ config, mode: 'direct' });
    try {
      await expect(run(closed.tools['write'], { path: 'a', content: 'b' })).rejects.toMatchObject({
        code: ErrorCode.TOOL_CALL_BLOCKED,
      });
    } finally {
      await closed.close();
    }
    const asked: string[] = [];
    const open = await createToolSearch({
      config,
      mode: 'direct',
      approve: async (request) => (asked.push(request.toolId), 'allow'),
    });
    try {
      expect(JSON.stringify(await run(open.tools['write'], { path: 'a', content: 'b' }))).toContain(
        'FAKE_TOOL_OK write',
      );
      expect(asked).toEqual(['core:core:write']);
    } finally {
      await open.close();
    }
  });

  it('bad options are typed errors, and nothing stays open', async () => {
    await expect(createToolSearch({ mode: 'everything' as never })).rejects.toMatchObject({
      code: ErrorCode.MODE_UNKNOWN,
    });
    await expect(createToolSearch({ maxResults: 0 })).rejects.toMatchObject({ code: ErrorCode.OPTIONS_INVALID });
    await expect(createToolSearch({ config: { tools: { deny: 'read' } } as never })).rejects.toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
    });
    const clash = fakeTool('tool_search', 'plugin', 'mine', 'My own search tool');
    await expect(createToolSearch({ config: { plugins: {} }, plugins: [toolSource([clash])] })).rejects.toMatchObject({
      code: AiSdkErrors.AI_SDK_TOOL_NAME_TAKEN,
    });
    const renamed = await createToolSearch({
      config: { plugins: {} },
      plugins: [toolSource([clash])],
      searchToolName: 'find_tools',
    });
    expect(Object.keys(renamed.tools).sort()).toEqual(['find_tools', 'tool_search']);
    await renamed.close();
  });
});
