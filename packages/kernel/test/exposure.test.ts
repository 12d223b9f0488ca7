import { describe, expect, it } from 'vitest';
import {
  createKernel,
  directTool,
  ErrorCode,
  notLoadedResult,
  type ExposedTool,
  type KernelPlugin,
} from '@tool-search/kernel';
import { source, tool } from './helpers.js';

const tools = [
  tool('read'),
  tool('pinned', { catalogMode: 'direct-only' }),
  tool('weird.name/with:chars', { source: 'mcp', owner: 'srv' }),
];

const controlMode: KernelPlugin = {
  name: 'control-mode',
  apply({ hooks }) {
    hooks.materialize.for('tiny').tap((draft) => {
      draft.tools.push({
        name: 'ping',
        description: 'answers pong',
        inputSchema: { type: 'object' },
        handler: async () => ({ content: [{ type: 'text', text: 'pong' }] }),
      });
      draft.system.push('Use ping.');
      return draft;
    });
  },
};

describe('exposure', () => {
  it('direct mode exposes every catalog tool, direct-only included, in id order', async () => {
    const run = await createKernel({ plugins: [source('s', tools)] }).createRun();
    const exposure = await run.exposure('direct');
    expect(exposure.tools.map((t) => t.name)).toEqual(['read', 'weird.name/with:chars', 'pinned']);
  });

  it('keeps direct-only tools visible in every mode', async () => {
    const run = await createKernel({ plugins: [source('s', tools), controlMode] }).createRun();
    const exposure = await run.exposure('tiny');
    expect(exposure.tools.map((t) => t.name)).toEqual(['ping', 'pinned']);
    expect(exposure.system).toBe('Use ping.');
  });

  it('routes control tools to their handler and direct tools through the run', async () => {
    const run = await createKernel({ plugins: [source('s', tools), controlMode] }).createRun();
    const exposure = await run.exposure('tiny');
    await expect(exposure.call('ping', {})).resolves.toMatchObject({
      status: 'ok',
      result: { content: [{ text: 'pong' }] },
    });
    await expect(exposure.call('pinned', {})).resolves.toMatchObject({ status: 'ok', toolId: 'core:core:pinned' });
  });

  it('does not route names the mode did not expose', async () => {
    const run = await createKernel({ plugins: [source('s', tools), controlMode] }).createRun();
    const exposure = await run.exposure('tiny');
    await expect(exposure.call('read', {})).resolves.toMatchObject({
      status: 'error',
      error: { code: ErrorCode.UNKNOWN_TOOL },
    });
  });

  it('fails with MODE_UNKNOWN for a mode nobody materializes', async () => {
    const run = await createKernel().createRun();
    await expect(run.exposure('nope')).rejects.toMatchObject({ code: ErrorCode.MODE_UNKNOWN });
  });

  it('reports a throwing mode plugin by name', async () => {
    const broken: KernelPlugin = {
      name: 'broken-mode',
      apply: ({ hooks }) =>
        hooks.materialize.for('x').tap(() => {
          throw new Error('no');
        }),
    };
    const run = await createKernel({ plugins: [broken] }).createRun();
    await expect(run.exposure('x')).rejects.toMatchObject({
      code: ErrorCode.MATERIALIZE_FAILED,
      plugin: 'broken-mode',
    });
  });

  it('falls back to another mode when asked, with a diagnostic', async () => {
    const fallback: KernelPlugin = {
      name: 'fallback-mode',
      apply: ({ hooks }) =>
        hooks.materialize.for('fancy').tap((draft) => ({ ...draft, fallback: { mode: 'tiny', reason: 'no sandbox' } })),
    };
    const run = await createKernel({ plugins: [source('s', tools), controlMode, fallback] }).createRun();
    const exposure = await run.exposure('fancy');
    expect(exposure.mode).toBe('tiny');
    expect(run.diagnostics).toContainEqual(expect.objectContaining({ code: ErrorCode.MODE_FALLBACK }));
  });

  it('is provider-neutral: no provider formats, names route as exposed (@tool-search/provider-formats adds both)', async () => {
    const run = await createKernel({ plugins: [source('s', tools)] }).createRun();
    const exposure = await run.exposure('direct');
    expect(Object.keys(exposure).sort()).toEqual(['call', 'has', 'loaded', 'mode', 'system', 'toJSON', 'tools']);
    await expect(exposure.call('weird.name/with:chars', {})).resolves.toMatchObject({
      status: 'ok',
      toolId: 'mcp:srv:weird.name/with:chars',
    });
  });

  it('is byte-identical for the same catalog, whatever order sources finish in', async () => {
    const slow = (name: string, delay: number, list: ReturnType<typeof tool>[]): KernelPlugin =>
      source(name, () => new Promise((r) => setTimeout(() => r(list), delay)));
    const a = await createKernel({
      plugins: [slow('a', 5, [tool('x')]), slow('b', 1, [tool('y', { source: 'plugin', owner: 'b' })])],
    }).createRun();
    const b = await createKernel({
      plugins: [slow('a', 1, [tool('x')]), slow('b', 5, [tool('y', { source: 'plugin', owner: 'b' })])],
    }).createRun();
    expect(JSON.stringify(await a.exposure('direct'))).toBe(JSON.stringify(await b.exposure('direct')));
  });
});

describe('direct exposure with shared names', () => {
  it('exposes every tool: the name owner under its name, the others under owner__name, each routed to its own id', async () => {
    const run = await createKernel({
      plugins: [
        source('s', [
          tool('read'),
          tool('read', { source: 'mcp', owner: 'fs' }),
          tool('read', { source: 'mcp', owner: 'docs' }),
        ]),
      ],
    }).createRun();
    const exposure = await run.exposure('direct');
    expect(exposure.tools.map((t) => [t.name, t.toolId])).toEqual([
      ['read', 'core:core:read'],
      ['docs__read', 'mcp:docs:read'],
      ['fs__read', 'mcp:fs:read'],
    ]);
    await expect(exposure.call('fs__read', {})).resolves.toMatchObject({ status: 'ok', toolId: 'mcp:fs:read' });
  });
});

describe('a direct-only tool named like a control tool', () => {
  it('does not take the control tool name; the run says so', async () => {
    const run = await createKernel({
      plugins: [source('s', [tool('ping', { catalogMode: 'direct-only' })]), controlMode],
    }).createRun();
    const exposure = await run.exposure('tiny');
    expect(exposure.tools.filter((t) => t.name === 'ping')).toHaveLength(1);
    await expect(exposure.call('ping', {})).resolves.toMatchObject({ result: { content: [{ text: 'pong' }] } });
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({ code: ErrorCode.TOOL_NAME_SHADOWED, toolId: 'core:core:ping' }),
    );
  });
});

// Issue 44 item 4: the kernel's part of a call before the load. The mode decides what loads (`loadOnCall`).
describe('loadOnCall', () => {
  const loadingMode = (load: (name: string) => ExposedTool | undefined): KernelPlugin => ({
    name: 'loading-mode',
    apply({ hooks }) {
      hooks.materialize.for('lazy').tap((draft) => {
        draft.loadOnCall = load;
        return draft;
      });
    },
  });

  it('answers TOOL_NOT_LOADED with the schema, exposes the tool under the called name, and routes the next call', async () => {
    const loadable = new Map<string, ExposedTool>();
    const run = await createKernel({
      plugins: [source('s', tools), loadingMode((name) => loadable.get(name))],
    }).createRun();
    loadable.set('read', directTool(run.tool('read')!));
    const exposure = await run.exposure('lazy');
    const first = await exposure.call('read', {});
    expect(first).toMatchObject({
      status: 'error',
      toolId: 'core:core:read',
      error: { code: ErrorCode.TOOL_NOT_LOADED },
    });
    expect(first.status === 'error' && first.result).toEqual(notLoadedResult('read', run.tool('read')!.inputSchema));
    expect(exposure.loaded().map((view) => [view.name, view.toolId, view.kind])).toEqual([
      ['read', 'core:core:read', 'tool'],
    ]);
    await expect(exposure.call('read', {})).resolves.toMatchObject({ status: 'ok', toolId: 'core:core:read' });
    await expect(exposure.call('other', {})).resolves.toMatchObject({ error: { code: ErrorCode.UNKNOWN_TOOL } });
  });

  it("checks the mode's pick: no handler, no id, nothing outside the effective catalog, nothing hidden", async () => {
    const handler = async () => ({ content: [] });
    const picks: Record<string, Partial<ExposedTool>> = {
      h: { handler, toolId: 'core:core:read' },
      n: {},
      ghost: { toolId: 'core:core:ghost' },
      secret: { toolId: 'core:core:secret' },
      app_only: { toolId: 'core:core:app_only' },
    };
    const deny: KernelPlugin = {
      name: 'deny-secret',
      apply: ({ hooks }) => hooks.filterPolicy.tap((list) => list.filter((t) => t.name !== 'secret')),
    };
    const run = await createKernel({
      plugins: [
        source('s', [...tools, tool('secret'), tool('app_only', { catalogMode: 'hidden' })]),
        deny,
        // A careless mode: it hands back whatever id it was told, with a made-up schema.
        loadingMode((name) => ({
          name,
          description: '',
          inputSchema: { type: 'object', title: 'leak' },
          ...picks[name],
        })),
      ],
    }).createRun();
    const exposure = await run.exposure('lazy');
    for (const name of Object.keys(picks)) {
      const outcome = await exposure.call(name, {});
      expect(outcome, name).toMatchObject({ error: { code: ErrorCode.UNKNOWN_TOOL } });
      expect(JSON.stringify(outcome)).not.toContain('leak');
    }
    expect(exposure.loaded()).toEqual([]);
  });
});
