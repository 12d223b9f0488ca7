import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { readSessionLog } from '@tool-search/telemetry';
import { openToolSearchRun, withFrameworkSurface, type FrameworkSurface } from '@tool-search/preset';

// The helper the framework adapters (ai-sdk, openai-agents, langchain) open their run with.
describe('openToolSearchRun', () => {
  it("runs sandboxed where the config's sandbox.mode says so (non-main: all but the agent's main session)", async () => {
    const config = {
      plugins: { 'fake-catalog': { tools: 0, core: true } },
      tools: { sandbox: { tools: { allow: ['read'] } } },
      agents: { list: [{ id: 'main', sandbox: { mode: 'non-main' as const } }] },
    };
    for (const [sessionId, sandboxed] of [
      ['main', false],
      ['worker', true],
    ] as const) {
      const opened = await openToolSearchRun({ config, agentId: 'main', sessionId });
      try {
        expect(opened.run.info.request.sandboxed === true).toBe(sandboxed);
        expect(opened.run.tool('write') === undefined).toBe(sandboxed);
      } finally {
        await opened.close();
      }
    }
  });

  it('loads a config file like the CLI, applies its policy, and searches the policy-filtered catalog', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'open-run-'));
    writeFileSync(
      join(dir, 'tool-search.json'),
      '{ plugins: { "fake-catalog": { tools: 50 } }, tools: { deny: ["read"] } } // JSON5',
    );
    const opened = await openToolSearchRun({
      config: 'tool-search.json',
      cwd: dir,
      sessionId: 'file',
      sessionLogDir: join(dir, 'logs'),
    });
    try {
      expect(opened.run.tool('read')).toBeUndefined();
      expect(opened.run.tool('write')).toBeDefined();
      const hits = await opened.search('read the contents of a file', { limit: 5 });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits).not.toContain('core:core:read');
      expect(hits.every((id) => opened.run.tool(id) !== undefined)).toBe(true);
      expect((await opened.search('write a file', { limit: 3 })).length).toBeLessThanOrEqual(3);
    } finally {
      await opened.close();
      await opened.close(); // idempotent
    }
    const searches = (await readSessionLog(join(dir, 'logs', 'file.jsonl'))).filter((entry) => entry.type === 'search');
    expect(searches).toHaveLength(2);
    expect(searches[0]).toMatchObject({
      queries: ['read the contents of a file'],
      origin: 'api',
      ranker: { id: 'bm25f' },
    });
  });

  it('takes a config object, the agent and provider overrides of toolSearch, and session logs', async () => {
    const logs = mkdtempSync(join(tmpdir(), 'open-run-logs-'));
    const opened = await openToolSearchRun({
      config: {
        plugins: { 'fake-catalog': { tools: 20 } },
        tools: { toolSearch: { mode: 'tools', searchDefaultLimit: 4 } },
        agents: { list: [{ id: 'ops', tools: { toolSearch: { maxSearchLimit: 6 } } }] },
      },
      agentId: 'ops',
      sessionId: 's-open-run',
      sessionLogDir: logs,
    });
    try {
      expect(opened.toolSearch).toMatchObject({ mode: 'tools', searchDefaultLimit: 4, maxSearchLimit: 6 });
      expect(opened.run.info.sessionId).toBe('s-open-run');
      expect(await opened.search('send an email', { limit: 100 })).toHaveLength(6);
      expect(await opened.search('send an email')).toHaveLength(4);
    } finally {
      await opened.close();
    }
  });

  it('rejects an invalid config object with CONFIG_INVALID and a missing file with CONFIG_UNREADABLE', async () => {
    await expect(openToolSearchRun({ config: { tools: { profile: 42 } } as never })).rejects.toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
    });
    await expect(openToolSearchRun({ config: 'nope.json', cwd: tmpdir() })).rejects.toMatchObject({
      code: ErrorCode.CONFIG_UNREADABLE,
    });
  });

  it('surface(mode): provider-safe names, routing through the run, and coded rejections', async () => {
    const opened = await openToolSearchRun({
      config: {
        plugins: { 'fake-catalog': { tools: 10 } },
        tools: { deny: ['fake_plugin_tool_0003'], approvals: { require: ['write'] } },
      },
    });
    try {
      const direct = await opened.surface('direct');
      expect(direct.tools.every((tool) => /^[a-zA-Z0-9_-]{1,64}$/.test(tool.name))).toBe(true);
      expect(direct.tools.map((tool) => tool.name)).not.toContain('fake_plugin_tool_0003');
      const read = direct.tools.find((tool) => tool.name === 'read')!;
      expect(read).toMatchObject({ kind: 'tool', toolId: 'core:core:read' });
      expect(direct.nameOf('core:core:read')).toBe('read');
      expect(JSON.stringify(await read.call({ path: 'a.txt' }))).toContain('FAKE_TOOL_OK read');
      await expect(read.call({ path: 42 })).rejects.toMatchObject({ code: ErrorCode.TOOL_ARGUMENTS_INVALID });
      // Fail closed: approval required and no approver.
      await expect(
        direct.tools.find((tool) => tool.name === 'write')!.call({ path: 'a', content: 'b' }),
      ).rejects.toMatchObject({ code: ErrorCode.TOOL_CALL_BLOCKED });

      const tools = await opened.surface('tools');
      expect(tools.tools.map((tool) => [tool.name, tool.kind])).toContainEqual(['tool_call', 'control']);
      const call = tools.tools.find((tool) => tool.name === 'tool_call')!;
      const sibling = opened.run.tool('fake_plugin_tool_0004')!.id;
      expect(JSON.stringify(await call.call({ id: sibling, args: {} }))).toContain('FAKE_TOOL_OK');
      await expect(call.call({ id: sibling.replace('0004', '0003'), args: {} })).rejects.toMatchObject({
        code: ErrorCode.UNKNOWN_TOOL,
      });
      await expect(opened.surface('nope')).rejects.toMatchObject({ code: ErrorCode.MODE_UNKNOWN });
    } finally {
      await opened.close();
    }
  });

  it('refuses an agent that is not configured, and leaves nothing open', async () => {
    await expect(
      openToolSearchRun({ config: { plugins: { 'fake-catalog': { tools: 5 } } }, agentId: 'ghost' }),
    ).rejects.toMatchObject({ code: ErrorCode.AGENT_UNKNOWN });
  });
});

// What the three framework adapters share before building their tools.
describe('withFrameworkSurface', () => {
  const config = { plugins: { 'fake-catalog': { tools: 20 } } };

  it('hands the deferred mode the direct surface with the run default as the search limit', async () => {
    const seen = await withFrameworkSurface({ config }, (framework) => framework);
    try {
      expect(seen).toMatchObject({ mode: 'deferred', searchToolName: 'tool_search', limit: 8 });
      expect(seen.surface.mode).toBe('direct');
      expect(seen.surface.tools.some((t) => t.catalogMode === 'catalog')).toBe(true);
    } finally {
      await seen.opened.close();
    }
  });

  it('refuses an unknown mode and a maxResults that is not a positive integer before opening anything', async () => {
    await expect(withFrameworkSurface({ config, mode: 'all' as never }, () => 1)).rejects.toMatchObject({
      code: ErrorCode.MODE_UNKNOWN,
    });
    for (const maxResults of [0, -1, 1.5, Number.NaN])
      await expect(withFrameworkSurface({ config, maxResults }, () => 1)).rejects.toMatchObject({
        code: ErrorCode.OPTIONS_INVALID,
      });
  });

  it('closes the run when the build throws, and passes the error on', async () => {
    let seen: FrameworkSurface | undefined;
    const refusal = new Error('the search tool name is taken');
    await expect(
      withFrameworkSurface({ config, mode: 'code', maxResults: 3 }, (framework) => {
        seen = framework;
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(seen).toMatchObject({ mode: 'code', limit: 3 });
    expect(seen!.surface.mode).toBe('code');
    expect(seen!.opened.run.closed).toBe(true);
  });
});
