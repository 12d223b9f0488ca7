import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kernel } from '@tool-search/kernel';
import { createSessionHost } from '@tool-search/sessions';
import { createToolSearchKernel, GATEWAY_TOOL_ABSENT } from '@tool-search/preset';

let kernel: Kernel | undefined;
afterEach(async () => kernel?.close());

const workspace = () => realpathSync(mkdtempSync(join(tmpdir(), 'preset-sessions-')));
const SESSION_TOOLS = [
  'agents_list',
  'session_status',
  'sessions_history',
  'sessions_list',
  'sessions_send',
  'sessions_spawn',
];

describe('the session tools under plugins.core', () => {
  it('are not listed without a gateway (no session host)', async () => {
    ({ kernel } = await createToolSearchKernel({ plugins: { core: { workspace: workspace() } } }));
    const names = (await kernel.createRun()).catalog.map((t) => t.name);
    expect(names.filter((n) => SESSION_TOOLS.includes(n))).toEqual([]);
  });

  it('are listed as core:core:<name> where a gateway gives its session host', async () => {
    ({ kernel } = await createToolSearchKernel(
      { plugins: { core: { workspace: workspace() } } },
      { sessionHost: createSessionHost() },
    ));
    const catalog = (await kernel.createRun()).catalog;
    expect(
      catalog
        .filter((t) => SESSION_TOOLS.includes(t.name))
        .map((t) => t.id)
        .sort(),
    ).toEqual(SESSION_TOOLS.map((n) => `core:core:${n}`));
  });

  it('group:sessions selects the real session tools', async () => {
    ({ kernel } = await createToolSearchKernel(
      { plugins: { core: { workspace: workspace() } }, tools: { allow: ['group:sessions'] } },
      { sessionHost: createSessionHost() },
    ));
    expect((await kernel.createRun()).catalog.map((t) => t.name).sort()).toEqual([
      'session_status',
      'sessions_history',
      'sessions_list',
      'sessions_send',
      'sessions_spawn',
    ]);
  });

  it('cron is listed with a session host and a cron folder; group:automation selects it', async () => {
    const cronDir = join(workspace(), 'cron');
    ({ kernel } = await createToolSearchKernel(
      { plugins: { core: { workspace: workspace() } }, tools: { allow: ['group:automation'] } },
      { sessionHost: createSessionHost(), cronDir },
    ));
    expect((await kernel.createRun()).catalog.map((t) => t.id)).toEqual(['core:core:cron']);
    await kernel.close();
    ({ kernel } = await createToolSearchKernel(
      { plugins: { core: { workspace: workspace() } } },
      { sessionHost: createSessionHost() },
    ));
    expect((await kernel.createRun()).tool('cron')).toBeUndefined();
  });

  it('a wrong tools.sessions.visibility is a config error naming the path', async () => {
    await expect(
      createToolSearchKernel(
        { plugins: { core: { workspace: workspace() } }, tools: { sessions: { visibility: 'everyone' } } as never },
        { sessionHost: createSessionHost() },
      ),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID', path: '/tools/sessions/visibility' });
  });
});

describe('the gateway tool under plugins.core', () => {
  const control = {
    configPath: join(workspace(), 'tool-search.json'),
    check: async () => undefined,
    restart: () => undefined,
  };

  it('is listed only where a gateway runs (its control given) and an allow list names it', async () => {
    ({ kernel } = await createToolSearchKernel(
      { plugins: { core: { workspace: workspace() } }, tools: { allow: ['group:automation', 'gateway'] } },
      { sessionHost: createSessionHost(), gateway: control },
    ));
    expect((await kernel.createRun()).catalog.map((t) => t.id)).toEqual(['core:core:gateway']);
    // A group (or a profile, or `*`) does not name it: the gateway tool is never offered by default.
    await kernel.close();
    ({ kernel } = await createToolSearchKernel(
      { plugins: { core: { workspace: workspace() } }, tools: { allow: ['group:automation'] } },
      { sessionHost: createSessionHost(), gateway: control },
    ));
    expect((await kernel.createRun()).catalog.map((t) => t.id)).toEqual([]);
  });

  it('is not listed elsewhere, and a diagnostic says why', async () => {
    ({ kernel } = await createToolSearchKernel({ plugins: { core: { workspace: workspace() } } }));
    const run = await kernel.createRun();
    expect(run.tool('gateway')).toBeUndefined();
    expect(run.diagnostics.find((d) => d.toolId === 'core:core:gateway')).toMatchObject({
      code: 'TOOL_NOT_CONFIGURED',
      message: GATEWAY_TOOL_ABSENT,
    });
  });
});
