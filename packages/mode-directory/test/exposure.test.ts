import { ErrorCode } from '@tool-search/kernel';
import { PROVIDER_NAME_PATTERN, providerExposure } from '@tool-search/provider-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { DIRECTORY_MODE_PLUGIN, directoryModePlugin, type DirectoryModeOptions } from '../src/index.js';
import { directoryRun, TOOLS } from './fixtures.js';
import { fakeTool as fake } from '@tool-search/testing';

const kernels: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

async function open(options: DirectoryModeOptions = {}) {
  const opened = await directoryRun(options);
  kernels.push(opened.kernel);
  return opened;
}

describe('directory exposure', () => {
  it('shows the control tools, client tools, configured visible tools and direct-only tools, nothing else', async () => {
    const { exposure } = await open({ visible: ['weather_forecast', 'mcp:odd:weird.name/with:chars'] });
    expect(exposure.tools.map((tool) => [tool.name, tool.toolId ?? tool.kind])).toEqual([
      ['tool_search', 'control'],
      ['tool_describe', 'control'],
      ['tool_call', 'control'],
      ['browser_click', 'client:client:browser_click'],
      ['weird.name/with:chars', 'mcp:odd:weird.name/with:chars'],
      ['weather_forecast', 'plugin:weather:weather_forecast'],
      ['message', 'core:core:message'],
    ]);
  });

  it('gives visible tools their full schema', async () => {
    const { exposure } = await open({ visible: ['core:core:write_file'] });
    expect(exposure.tools.find((tool) => tool.name === 'write_file')?.inputSchema).toMatchObject({
      required: ['path', 'text'],
    });
  });

  it('lists hidden tools in the system prompt, sorted by owner then name', async () => {
    const { exposure } = await open({ visible: ['weather_forecast'] });
    const rows = exposure.system.split('\n').filter((line) => line.startsWith('[') || line.startsWith('- '));
    expect(rows).toEqual([
      '[cleanup]',
      '- dangerous_delete: Delete every file in a directory tree.',
      '[core]',
      '- read_file: Read a text file from the workspace and return its contents.',
      '- write_file: Write text to a file in the workspace.',
      '[github]',
      '- mcp:github:search_issues: Search GitHub issues.',
      '[gitlab]',
      '- mcp:gitlab:search_issues: Search GitLab issues.',
      '[odd]',
      expect.stringMatching(/^- hidden_odd_name_[0-9a-f]{8}: A hidden MCP tool whose name providers refuse\.$/),
      expect.stringMatching(/^- weird_name_with_chars_[0-9a-f]{8}: An MCP tool whose name providers refuse\.$/),
    ]);
  });

  it('keeps visible, client and direct-only tools out of the directory', async () => {
    const { exposure } = await open({ visible: ['weather_forecast'] });
    expect(exposure.system).not.toMatch(/weather_forecast|browser_click|- message/);
  });

  it('sends provider-safe names and routes a provider name back to the tool', async () => {
    const opened = await open({ visible: ['weird.name/with:chars'] });
    const { calls } = opened;
    const exposure = providerExposure(opened.exposure);
    const names = exposure.toOpenAI().map((tool) => tool.function.name);
    for (const name of names) expect(name).toMatch(PROVIDER_NAME_PATTERN);
    for (const tool of exposure.toAnthropic()) expect(tool.name).toMatch(PROVIDER_NAME_PATTERN);
    const providerName = exposure.providerName('weird.name/with:chars');
    expect(names).toContain(providerName);
    const outcome = await exposure.call(providerName, { a: 1 });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: { content: [{ text: 'FAKE_TOOL_OK weird.name/with:chars {"a":1}' }] },
    });
    expect(calls).toEqual([{ toolId: 'mcp:odd:weird.name/with:chars', origin: 'direct', status: 'ok' }]);
  });

  it('is byte-identical for the same catalog across runs and kernels', async () => {
    const first = await open({ visible: ['weather_forecast'] });
    const second = await open({ visible: ['weather_forecast'] });
    const again = await first.run.exposure('directory');
    expect(JSON.stringify(second.exposure)).toBe(JSON.stringify(first.exposure));
    expect(JSON.stringify(again)).toBe(JSON.stringify(first.exposure));
    expect(JSON.stringify(providerExposure(second.exposure).toOpenAI())).toBe(
      JSON.stringify(providerExposure(first.exposure).toOpenAI()),
    );
    expect(JSON.stringify(providerExposure(second.exposure).toAnthropic())).toBe(
      JSON.stringify(providerExposure(first.exposure).toAnthropic()),
    );
  });

  it('resolves a visible name shared by several tools like run.tool does, the others stay in the directory', async () => {
    const { exposure } = await open({ visible: ['search_issues'] });
    expect(exposure.tools.filter((tool) => tool.name === 'search_issues').map((tool) => tool.toolId)).toEqual([
      'mcp:github:search_issues',
    ]);
    expect(exposure.system).toContain('- mcp:gitlab:search_issues: Search GitLab issues.');
    expect(exposure.system).not.toContain('mcp:github:search_issues');
  });

  it('exposes a visible tool whose name clashes with a direct-only tool under its id, keeping both', async () => {
    const opened = await directoryRun({ visible: ['plugin:chat:message'] }, [
      ...TOOLS,
      fake('message', 'plugin', 'chat', 'Chat message.'),
    ]);
    kernels.push(opened.kernel);
    const { exposure } = opened;
    expect(
      exposure.tools.filter((tool) => tool.toolId?.endsWith(':message')).map((tool) => [tool.name, tool.toolId]),
    ).toEqual([
      ['plugin:chat:message', 'plugin:chat:message'],
      ['message', 'core:core:message'],
    ]);
    const outcome = await providerExposure(exposure).call(
      providerExposure(exposure).providerName('plugin:chat:message'),
      {},
    );
    expect(outcome).toMatchObject({ status: 'ok', toolId: 'plugin:chat:message' });
  });

  it('is named after its npm package', () => {
    expect(directoryModePlugin().name).toBe(DIRECTORY_MODE_PLUGIN);
    expect(DIRECTORY_MODE_PLUGIN).toBe('@tool-search/mode-directory');
  });

  it.each([
    [{ budgetChars: -1 }],
    [{ visible: [''] }],
    [{ visible: 'read_file' as unknown as string[] }],
    [{ searchDefaultLimit: 9, maxSearchLimit: 3 }],
  ])('refuses invalid options %j', (options) => {
    expect(() => directoryModePlugin(options)).toThrow(expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID }));
  });
});
