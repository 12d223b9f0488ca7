import { createKernel, ErrorCode } from '@tool-search/kernel';
import { PROVIDER_NAME_PATTERN, providerExposure } from '@tool-search/provider-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { toolsModePlugin, TOOLS_MODE_PLUGIN } from '../src/index.js';
import { sourcePlugin, toolsRun } from './fixtures.js';

const kernels: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

async function open() {
  const opened = await toolsRun();
  kernels.push(opened.kernel);
  return opened;
}

describe('tools exposure', () => {
  it('shows the three control tools and the direct-only tools, nothing else', async () => {
    const { exposure } = await open();
    expect(exposure.tools.map((tool) => [tool.name, tool.kind])).toEqual([
      ['tool_search', 'control'],
      ['tool_describe', 'control'],
      ['tool_call', 'control'],
      ['message', 'tool'],
    ]);
  });

  it('adds a short usage text to the system prompt', async () => {
    const { exposure } = await open();
    expect(exposure.system).toContain('tool_search');
    expect(exposure.system).toContain('tool_call');
    expect(exposure.system.length).toBeLessThan(800);
  });

  it('sends provider-safe names to OpenAI and Anthropic', async () => {
    const exposure = providerExposure((await open()).exposure);
    for (const tool of exposure.toOpenAI()) {
      expect(tool.type).toBe('function');
      expect(tool.function.name).toMatch(PROVIDER_NAME_PATTERN);
      expect(tool.function.parameters).toMatchObject({ type: 'object' });
    }
    for (const tool of exposure.toAnthropic()) expect(tool.name).toMatch(PROVIDER_NAME_PATTERN);
  });

  it('is byte-identical for the same catalog across runs and kernels', async () => {
    const first = await open();
    const second = await open();
    const again = await first.run.exposure('tools');
    expect(JSON.stringify(second.exposure)).toBe(JSON.stringify(first.exposure));
    expect(JSON.stringify(providerExposure(again).toOpenAI())).toBe(
      JSON.stringify(providerExposure(first.exposure).toOpenAI()),
    );
    expect(JSON.stringify(providerExposure(second.exposure).toAnthropic())).toBe(
      JSON.stringify(providerExposure(first.exposure).toAnthropic()),
    );
  });

  it('is named after its npm package', () => {
    expect(toolsModePlugin().name).toBe(TOOLS_MODE_PLUGIN);
    expect(TOOLS_MODE_PLUGIN).toBe('@tool-search/mode-tools');
  });

  it('materializes only the tools mode', async () => {
    const kernel = createKernel({ plugins: [sourcePlugin(), toolsModePlugin()] });
    kernels.push(kernel);
    const run = await kernel.createRun();
    await expect(run.exposure('directory')).rejects.toMatchObject({ code: ErrorCode.MODE_UNKNOWN });
  });

  it.each([[{ maxSearchLimit: 0 }], [{ searchDefaultLimit: 2.5 }], [{ searchDefaultLimit: 30, maxSearchLimit: 10 }]])(
    'refuses invalid options %j',
    (options) => {
      expect(() => toolsModePlugin(options)).toThrow(expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID }));
    },
  );
});
