/** `tools.toolSearch.directory` and `.direct` reach the modes the preset builds; bad values fail loading with their path. */
import { describe, expect, it } from 'vitest';
import { DIRECT_MODE_HEADER } from '@tool-search/mode-direct';
import { createToolSearchKernel } from '@tool-search/preset';

const catalog = { 'fake-catalog': { tools: 200 } };

async function exposure(toolSearch: Record<string, unknown>, mode: 'directory' | 'direct', turnText?: string) {
  const { kernel } = await createToolSearchKernel({ plugins: catalog, tools: { toolSearch } });
  try {
    const run = await kernel.createRun({
      agentId: 'main',
      provider: 'openai',
      model: 'm',
      ...(turnText ? { turnText } : {}),
    });
    const exposed = await run.exposure(mode);
    return { names: exposed.tools.map((tool) => tool.name), system: String(exposed.system ?? '') };
  } finally {
    await kernel.close();
  }
}

describe('mode options from the config', () => {
  it('tools.toolSearch.directory.turnTools bounds the turn tools (0 turns them off)', async () => {
    const turn = 'fake plugin tool number widgets';
    const none = (await exposure({ mode: 'directory', directory: { turnTools: 0 } }, 'directory', turn)).names.length;
    const base = (await exposure({ mode: 'directory' }, 'directory')).names.length;
    expect(none).toBe(base);
    expect((await exposure({ mode: 'directory', directory: { turnTools: 2 } }, 'directory', turn)).names.length).toBe(
      base + 2,
    );
  });

  it('tools.toolSearch.directory.budgetChars bounds the directory block', async () => {
    const small = await exposure({ mode: 'directory', directory: { budgetChars: 800 } }, 'directory');
    const large = await exposure({ mode: 'directory' }, 'directory');
    expect(small.system.length).toBeLessThan(large.system.length);
  });

  it('tools.toolSearch.direct.budgetChars bounds the readable list (0 sends none)', async () => {
    expect((await exposure({ direct: { budgetChars: 0 } }, 'direct')).system).not.toContain(DIRECT_MODE_HEADER);
    const small = (await exposure({ direct: { budgetChars: 500 } }, 'direct')).system;
    const full = (await exposure({}, 'direct')).system;
    expect(small).toContain(DIRECT_MODE_HEADER);
    expect(small.length).toBeLessThan(full.length);
  });

  it('a bad value fails loading with OPTIONS_INVALID naming the option (a composer skipping config validation)', async () => {
    await expect(
      createToolSearchKernel({ plugins: catalog, tools: { toolSearch: { directory: { turnTools: 99 } } } }),
    ).rejects.toMatchObject({ code: 'OPTIONS_INVALID', path: '/turnTools' });
    await expect(
      createToolSearchKernel({ plugins: catalog, tools: { toolSearch: { direct: { budgetChars: -5 } } } }),
    ).rejects.toMatchObject({ code: 'OPTIONS_INVALID', path: '/budgetChars' });
  });
});
