/**
 * The browser is a core tool like the others: `plugins.core` lists it where Chromium runs, configured from the
 * config's `browser` section; where it cannot work, and for message, canvas and nodes (which need systems Tool
 * Search does not have), a diagnostic says why instead.
 */
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, type Kernel } from '@tool-search/kernel';
import { createToolSearchKernel, UNAVAILABLE_CORE_TOOLS } from '@tool-search/preset';
import { noteSkipped, systemProgramOnPath } from '@tool-search/testing';

const CHROMIUM = systemProgramOnPath('chromium');
if (!CHROMIUM) noteSkipped('the browser listing test of the preset', 'chromium');

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.close();
  kernel = undefined;
});

const workspace = () => realpathSync(mkdtempSync(join(tmpdir(), 'preset-browser-')));

describe('browser in the core tools', () => {
  it.skipIf(!CHROMIUM)('is listed as core:core:browser where Chromium runs', async () => {
    ({ kernel } = await createToolSearchKernel({ plugins: { core: { workspace: workspace() } } }));
    const run = await kernel.createRun();
    expect(run.tool('browser')?.id).toBe('core:core:browser');
    expect(run.diagnostics.filter((d) => d.toolId === 'core:core:browser')).toEqual([]);
  });

  it('browser.enabled: false unlists it, and a diagnostic says so', async () => {
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: workspace() } },
      browser: { enabled: false },
    }));
    const run = await kernel.createRun();
    expect(run.tool('browser')).toBeUndefined();
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({
        code: ErrorCode.TOOL_NOT_CONFIGURED,
        toolId: 'core:core:browser',
        message: expect.stringMatching(/browser\.enabled is false/),
      }),
    );
  });

  it('a bad browser section is CONFIG_INVALID at /browser/...', async () => {
    await expect(
      createToolSearchKernel({ plugins: { core: { workspace: workspace() } }, browser: { profiles: { Bad: {} } } }),
    ).rejects.toMatchObject({ code: ErrorCode.CONFIG_INVALID, path: expect.stringMatching(/^\/browser/) });
  });

  it('message, canvas and nodes are not listed, each with a diagnostic saying why and what would make it available', async () => {
    ({ kernel } = await createToolSearchKernel({ plugins: { core: { workspace: workspace() } } }));
    const run = await kernel.createRun();
    expect(Object.keys(UNAVAILABLE_CORE_TOOLS).sort()).toEqual(['canvas', 'message', 'nodes']);
    for (const name of ['message', 'canvas', 'nodes']) {
      expect(run.tool(name)).toBeUndefined();
      const diagnostic = run.diagnostics.find((d) => d.toolId === `core:core:${name}`);
      expect(diagnostic).toMatchObject({ code: ErrorCode.TOOL_NOT_CONFIGURED, level: 'info' });
      expect(diagnostic?.message).toMatch(new RegExp(`^${name} is not listed: .+; it becomes available only with`));
    }
  });
});
