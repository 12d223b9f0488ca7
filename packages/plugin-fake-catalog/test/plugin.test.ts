import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { CORE_TOOLS, fakeCatalogPlugin, fakeResultNote, PLUGIN_NAME } from '../src/index.js';

async function runWith(options: Parameters<typeof fakeCatalogPlugin>[0]) {
  const kernel = createKernel({ plugins: [fakeCatalogPlugin(options)] });
  return { kernel, run: await kernel.createRun() };
}

const CORE_NAMES = [
  'read',
  'write',
  'edit',
  'apply_patch',
  'exec',
  'bash',
  'process',
  'web_search',
  'web_fetch',
  'browser',
  'canvas',
  'nodes',
  'image',
  'pdf',
  'message',
  'cron',
  'gateway',
  'sessions_list',
  'sessions_history',
  'sessions_send',
  'sessions_spawn',
  'session_status',
  'agents_list',
  'memory_search',
  'memory_get',
];

describe('fakeCatalogPlugin', () => {
  it('is named after its npm package', () => {
    expect(fakeCatalogPlugin({ tools: 1, core: false }).name).toBe(PLUGIN_NAME);
  });

  it('lists the requested number of plugin tools', async () => {
    const { run } = await runWith({ tools: 37, core: false });
    expect(run.catalog.filter((tool) => tool.source === 'plugin')).toHaveLength(37);
    expect(run.catalog.filter((tool) => tool.source === 'core')).toHaveLength(0);
  });

  it('adds the core inventory when core is true', async () => {
    const { run } = await runWith({ tools: 0, core: true });
    expect(run.catalog.map((tool) => tool.name).sort()).toEqual([...CORE_NAMES].sort());
    expect(run.catalog.every((tool) => tool.source === 'core' && tool.owner === 'core')).toBe(true);
  });

  it('defaults to core tools and 1,000 plugin tools', async () => {
    const { run } = await runWith(undefined);
    expect(run.catalog).toHaveLength(CORE_NAMES.length + 1000);
  });

  it('derives plugin ids from the fake-catalog owner', async () => {
    const { run } = await runWith({ tools: 2, core: false });
    expect(run.catalog.map((tool) => tool.id)).toEqual([
      'plugin:fake-catalog:fake_plugin_tool_0001',
      'plugin:fake-catalog:fake_plugin_tool_0002',
    ]);
  });

  it('keeps every tool: the kernel drops none and reports nothing', async () => {
    const { run } = await runWith({ tools: 1000, core: true });
    expect(run.diagnostics).toEqual([]);
    expect(run.listed).toHaveLength(1025);
  });

  it('answers a plugin tool call with FAKE_TOOL_OK, its name and its arguments', async () => {
    const { run } = await runWith({ tools: 3, core: false });
    const tool = run.catalog[0]!;
    const args = Object.fromEntries(
      ((tool.inputSchema.required as string[] | undefined) ?? []).map((key) => [key, 'x']),
    );
    const outcome = await run.call(tool.id, args);
    expect(outcome).toMatchObject({
      status: 'ok',
      result: {
        content: [
          { type: 'text', text: `FAKE_TOOL_OK ${tool.name} ${JSON.stringify(args)}` },
          { type: 'text', text: fakeResultNote(tool.name) },
        ],
      },
    });
  });

  it('answers a core tool call with FAKE_TOOL_OK', async () => {
    const { run } = await runWith({ tools: 0, core: true });
    const outcome = await run.call('read', { path: 'README.md', limit: 5 });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: {
        content: [
          { type: 'text', text: 'FAKE_TOOL_OK read {"path":"README.md","limit":5}' },
          { type: 'text', text: expect.stringMatching(/^DEMO: read is a fake tool .* and did nothing/) },
        ],
      },
    });
  });

  it('says plainly in every result that the fake did nothing, and where the real tools come from (issue 46)', async () => {
    const { run } = await runWith({ tools: 0, core: true });
    for (const name of ['browser', 'gateway', 'canvas', 'nodes', 'message']) {
      const tool = run.tool(name)!;
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { enum?: string[] }>;
      const required = (tool.inputSchema.required as string[] | undefined) ?? [];
      const args = Object.fromEntries(required.map((key) => [key, properties[key]?.enum?.[0] ?? 'x']));
      const outcome = await run.call(name, args);
      const text = JSON.stringify(outcome);
      expect(text, name).toContain(`FAKE_TOOL_OK ${name}`);
      expect(text, name).toContain(`${name} is a fake tool`);
      expect(text, name).toContain('did nothing');
      expect(text, name).toContain('plugins: { core: {} }');
    }
  });

  it('marks every tool, core and plugin, as a demo fake (ToolMeta.demo)', async () => {
    const { run } = await runWith({ tools: 5, core: true, demoTools: true });
    expect(run.listed).toHaveLength(30);
    for (const tool of run.listed) expect(tool.meta?.demo, tool.id).toBe(true);
  });

  it('validates arguments against the core schemas', async () => {
    const { run } = await runWith({ tools: 0, core: true });
    await expect(run.call('exec', { cmd: 'ls' })).rejects.toMatchObject({ code: ErrorCode.TOOL_ARGUMENTS_INVALID });
  });

  it('reuses the same definition objects across runs', async () => {
    const kernel = createKernel({ plugins: [fakeCatalogPlugin({ tools: 5, core: true })] });
    const first = await kernel.createRun();
    const second = await kernel.createRun();
    expect(second.catalog.every((tool, i) => tool === first.catalog[i])).toBe(true);
  });

  it.each([{ tools: -1 }, { tools: 1.5 }, { core: 'yes' as unknown as boolean }])(
    'rejects invalid options %o',
    (options) => {
      let error: unknown;
      try {
        fakeCatalogPlugin(options);
      } catch (e) {
        error = e;
      }
      expect(ToolSearchError.isInstance(error) && error.code).toBe(ErrorCode.OPTIONS_INVALID);
    },
  );

  it('shapes core schemas after the real parameters', () => {
    const byName = Object.fromEntries(CORE_TOOLS.map((tool) => [tool.name, tool.inputSchema]));
    expect(byName.read).toMatchObject({ required: ['path'], properties: { path: {}, offset: {}, limit: {} } });
    expect(byName.exec).toMatchObject({
      required: ['command'],
      properties: { command: {}, workdir: {}, timeout: {}, background: {} },
    });
    expect(byName.web_search).toMatchObject({ required: ['query'], properties: { query: {}, count: {} } });
  });
});
