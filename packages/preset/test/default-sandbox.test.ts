import { describe, expect, it } from 'vitest';
import { createToolSearchKernel, type PresetOptions } from '@tool-search/preset';
import type { ToolSearchConfig } from '@tool-search/config';

// `Intl` tells the backends apart: Node's process sandbox has it, the QuickJS interpreter does not.
async function backendOf(config: ToolSearchConfig, options: PresetOptions): Promise<'process' | 'quickjs'> {
  const { kernel } = await createToolSearchKernel(config, options);
  try {
    const exposure = await (await kernel.createRun({})).exposure('code');
    const outcome = await exposure.call('tool_search_code', { code: 'return typeof Intl' });
    const value = (outcome as { result?: { structuredContent?: { value?: unknown } } }).result?.structuredContent
      ?.value;
    return value === 'object' ? 'process' : 'quickjs';
  } finally {
    await kernel.close();
  }
}

describe('code mode sandbox: the config decides, a front end only sets the default', () => {
  it('without either, code runs in the process sandbox (the documented default)', async () => {
    expect(await backendOf({}, {})).toBe('process');
  });

  it('defaultSandbox quickjs (what the gateway passes) runs code on QuickJS when the config names none', async () => {
    expect(await backendOf({}, { defaultSandbox: 'quickjs' })).toBe('quickjs');
  });

  it('a config naming the process sandbox wins over the front end default', async () => {
    expect(await backendOf({ tools: { toolSearch: { sandbox: 'process' } } }, { defaultSandbox: 'quickjs' })).toBe(
      'process',
    );
  });
}, 60_000);
