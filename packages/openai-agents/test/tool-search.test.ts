import { describe, expect, it } from 'vitest';
import { RunContext, type FunctionTool } from '@openai/agents';
import { ErrorCode } from '@tool-search/kernel';
import { fakeTool, toolSource } from '@tool-search/testing';
import { createToolSearch, OpenAIAgentsErrors } from '@tool-search/openai-agents';

const invoke = (tool: FunctionTool | undefined, input: unknown, context = new RunContext()) =>
  tool!.invoke(context, JSON.stringify(input));

describe('createToolSearch (Agents SDK)', () => {
  it('direct: provider-safe names, JSON Schema parameters, non-strict; bad arguments and approvals are coded tool errors', async () => {
    const odd = fakeTool('files.read/v2', 'plugin', 'odd', 'Read a file', {
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    });
    const search = await createToolSearch({
      config: { plugins: { 'fake-catalog': { tools: 5 } }, tools: { approvals: { require: ['write'] } } },
      plugins: [toolSource([odd])],
      mode: 'direct',
    });
    try {
      const byName = new Map(search.tools.map((t) => [t.name, t as FunctionTool]));
      expect(search.tools.every((t) => /^[a-zA-Z0-9_-]{1,64}$/.test(t.name))).toBe(true);
      const name = search.toolName('plugin:odd:files.read/v2')!;
      expect(byName.get(name)).toMatchObject({ strict: false, parameters: odd.inputSchema });
      expect(await invoke(byName.get(name), { path: 'a.txt' })).toContain('FAKE_TOOL_OK files.read/v2');
      expect(await invoke(byName.get(name), { path: 7 })).toContain(`Error ${ErrorCode.TOOL_ARGUMENTS_INVALID}`);
      expect(await invoke(byName.get('write'), { path: 'a', content: 'b' })).toContain(
        `Error ${ErrorCode.TOOL_CALL_BLOCKED}`,
      );
    } finally {
      await search.close();
    }
  });

  it('deferred: catalog tools are enabled only in the run context whose search found them; direct-only tools always', async () => {
    const pinned = fakeTool('pinned_status', 'plugin', 'ops', 'Always visible status tool', {
      catalogMode: 'direct-only',
    });
    const search = await createToolSearch({
      config: { plugins: { 'fake-catalog': { tools: 30 } } },
      plugins: [toolSource([pinned])],
    });
    try {
      const byName = new Map(search.tools.map((t) => [t.name, t as FunctionTool]));
      const mine = new RunContext();
      const other = new RunContext();
      const enabled = (name: string, context: RunContext) => byName.get(name)!.isEnabled(context, {} as never);
      expect(await enabled('read', mine)).toBe(false);
      expect(await enabled('pinned_status', mine)).toBe(true);
      const answer = JSON.parse(String(await invoke(byName.get('tool_search'), { query: 'read a file' }, mine))) as {
        tools: { name: string }[];
      };
      expect(answer.tools.map((t) => t.name)).toContain('read');
      expect(await enabled('read', mine)).toBe(true);
      expect(await enabled('read', other)).toBe(false);
      expect(await invoke(byName.get('tool_search'), { query: ' ' }, mine)).toContain(
        `Error ${ErrorCode.TOOL_ARGUMENTS_INVALID}`,
      );
    } finally {
      await search.close();
    }
  });

  it('bad options are typed errors', async () => {
    await expect(createToolSearch({ mode: 'all' as never })).rejects.toMatchObject({ code: ErrorCode.MODE_UNKNOWN });
    await expect(createToolSearch({ maxResults: 1.5 })).rejects.toMatchObject({ code: ErrorCode.OPTIONS_INVALID });
    const clash = fakeTool('tool_search', 'plugin', 'mine', 'My own search tool');
    await expect(createToolSearch({ config: { plugins: {} }, plugins: [toolSource([clash])] })).rejects.toMatchObject({
      code: OpenAIAgentsErrors.AGENTS_TOOL_NAME_TAKEN,
    });
  });
});
