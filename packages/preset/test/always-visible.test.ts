/**
 * `alwaysVisible` pins (issue #33, operator control) against a real MCP server
 * (plugin-mcp's fixture on the official SDK, over stdio): a pinned tool's full
 * schema is visible in every search mode and callable by its name; policy
 * still wins (a pinned but denied tool stays hidden and cannot run).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, ErrorCode, type RunExposure } from '@tool-search/kernel';
import { SEARCH_MODES, type ToolSearchConfig } from '@tool-search/config';
import { createToolSearchKernel, openToolSearchRun, PresetErrors } from '@tool-search/preset';
import type { Diagnostic, KernelPlugin } from '@tool-search/kernel';
import { providerExposure } from '@tool-search/provider-formats';

const SERVER = fileURLToPath(new URL('../../plugin-mcp/test/fixtures/flooding-server.mjs', import.meta.url));
const MODES = SEARCH_MODES;
const server = (alwaysVisible?: boolean | string[]) => ({
  command: process.execPath,
  args: [SERVER],
  ...(alwaysVisible !== undefined ? { alwaysVisible } : {}),
});

async function visibleIn(config: ToolSearchConfig, use?: (exposures: Record<string, RunExposure>) => Promise<void>) {
  const { kernel } = await createToolSearchKernel(
    { plugins: { 'fake-catalog': { tools: 20 } }, ...config },
    { mcpClient: {} },
  );
  try {
    const run = await kernel.createRun();
    const exposures: Record<string, RunExposure> = {};
    const shown: Record<string, string[]> = {};
    for (const mode of MODES) {
      exposures[mode] = await run.exposure(mode);
      shown[mode] = exposures[mode]!.tools.filter((tool) => tool.toolId?.startsWith('mcp:')).map(
        (tool) => tool.toolId!,
      );
    }
    await use?.(exposures);
    return shown;
  } finally {
    await kernel.close();
  }
}

describe('alwaysVisible pins', () => {
  it('shows a pinned MCP tool with its full schema in tools, directory and code modes, callable by its name', async () => {
    expect(await visibleIn({ mcp: { servers: { flood: server() } } })).toEqual({ tools: [], directory: [], code: [] });
    const shown = await visibleIn({ mcp: { servers: { flood: server(['echo']) } } }, async (exposures) => {
      for (const mode of MODES) {
        const echo = exposures[mode]!.tools.find((tool) => tool.name === 'echo')!;
        expect(echo).toMatchObject({ toolId: 'mcp:flood:echo', kind: 'tool', description: 'Echoes a message' });
        expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
        const outcome = await exposures[mode]!.call('echo', { message: `hi from ${mode}` });
        expect(outcome).toMatchObject({ status: 'ok', toolId: 'mcp:flood:echo' });
        expect(JSON.stringify(outcome)).toContain(`hi from ${mode}`);
      }
      expect(
        providerExposure(exposures.code!)
          .toOpenAI()
          .map((tool) => tool.function.name),
      ).toContain('echo');
    });
    expect(shown).toEqual({ tools: ['mcp:flood:echo'], directory: ['mcp:flood:echo'], code: ['mcp:flood:echo'] });
  }, 60_000);

  it('pins a whole server with true, and single tools by id or name with tools.alwaysVisible', async () => {
    const all = await visibleIn({ mcp: { servers: { flood: server(true) } } });
    for (const mode of MODES)
      expect([...all[mode]!].sort()).toEqual(
        ['crash', 'echo', 'flood_list_changed', 'flood_stderr', 'listings', 'stderr_written'].map(
          (name) => `mcp:flood:${name}`,
        ),
      );
    const some = await visibleIn({
      mcp: { servers: { flood: server() } },
      tools: { alwaysVisible: ['mcp:flood:listings', 'stderr_written'] },
    });
    for (const mode of MODES)
      expect([...some[mode]!].sort()).toEqual(['mcp:flood:listings', 'mcp:flood:stderr_written']);
  }, 60_000);

  it('keeps a pinned but denied tool hidden in every mode, and it cannot run', async () => {
    const config: ToolSearchConfig = {
      mcp: { servers: { flood: server(true) } },
      tools: { alwaysVisible: ['crash'], deny: ['crash', 'mcp:flood:echo'] },
    };
    const shown = await visibleIn(config, async (exposures) => {
      for (const mode of MODES) {
        const names = exposures[mode]!.tools.map((tool) => tool.name);
        expect(names).not.toContain('crash');
        expect(names).not.toContain('echo');
        expect(names).toContain('listings');
        expect((await exposures[mode]!.call('echo', { message: 'x' })).status).not.toBe('ok');
      }
    });
    for (const mode of MODES) expect(shown[mode]).not.toContain('mcp:flood:echo');
  }, 60_000);

  it('says once per run which pins show nothing: denied, misspelled, or a server with no tools', async () => {
    const seen: Diagnostic[] = [];
    const recorder: KernelPlugin = {
      name: 'test-diagnostics',
      apply: ({ hooks }) =>
        hooks.runEvent.tap((event) => void (event.type === 'diagnostic' && seen.push(event.diagnostic))),
    };
    const config: ToolSearchConfig = {
      mcp: { servers: { flood: server(['echo', 'ecko']) } },
      tools: { alwaysVisible: ['listings', 'no_such_tool'], deny: ['mcp:flood:echo'] },
    };
    const { kernel } = await createToolSearchKernel(config, { mcpClient: {}, plugins: [recorder] });
    try {
      const run = await kernel.createRun();
      for (const mode of MODES) expect((await run.exposure(mode)).tools.map((tool) => tool.name)).toContain('listings');
      const pins = seen.filter((d) => d.code === PresetErrors.PIN_NOT_VISIBLE);
      expect(pins).toHaveLength(1);
      expect(pins[0]!.details).toEqual({
        pins: [
          'tools.alwaysVisible[1] "no_such_tool"',
          'mcp.servers.flood.alwaysVisible[0] "echo"',
          'mcp.servers.flood.alwaysVisible[1] "ecko"',
        ],
      });
      expect(pins[0]!.message).toContain('tool-search tools explain');
    } finally {
      await kernel.close();
    }
  }, 60_000);

  it('refuses bad pins, naming the path, the rule and the fix', async () => {
    const refused = async (config: unknown) =>
      openToolSearchRun({ config: config as ToolSearchConfig }).then(
        () => undefined,
        (error: unknown) => error,
      );
    const wrongType = await refused({ mcp: { servers: { flood: { command: 'node', alwaysVisible: 'echo' } } } });
    expect(wrongType).toBeInstanceOf(ConfigError);
    expect(wrongType).toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
      path: '/mcp/servers/flood/alwaysVisible',
      rule: 'anyOf',
    });
    expect((wrongType as Error).message).toContain('must be boolean or array');
    expect(await refused({ tools: { alwaysVisible: ['echo', ''] } })).toMatchObject({
      path: '/tools/alwaysVisible/1',
      rule: 'minLength',
    });
    expect(await refused({ tools: { alwaysVisble: ['echo'] } })).toMatchObject({
      path: '/tools/alwaysVisble',
      rule: 'additionalProperties',
      message: expect.stringContaining('did you mean "alwaysVisible"'),
    });
  });
});
