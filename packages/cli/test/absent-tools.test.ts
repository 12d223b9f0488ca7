/**
 * "`tools list` explains the absence of browser, message, canvas, nodes": with the real core tools, each inventory
 * tool that cannot work here is missing from the list and a diagnostic on stderr (and in --json) says why.
 */
import { describe, expect, it } from 'vitest';
import { noteSkipped, systemProgramOnPath } from '@tool-search/testing';
import { cli, folder } from './helpers.js';

const CHROMIUM = systemProgramOnPath('chromium');
if (!CHROMIUM) noteSkipped('the browser listing of tools list', 'chromium');

const config = (browser: string) => folder({ 'tool-search.json': `{ plugins: { core: {} }, browser: ${browser} }` });

describe('tools list explains the absence of browser, message, canvas and nodes', () => {
  it('prints a TOOL_NOT_CONFIGURED diagnostic for each on stderr', async () => {
    const { code, stdout, stderr } = await cli(['tools', 'list'], config('{ enabled: false }'));
    expect(code).toBe(0);
    for (const name of ['browser', 'message', 'canvas', 'nodes']) {
      expect(stdout).not.toMatch(new RegExp(`^${name}\\s`, 'm'));
      expect(stderr).toMatch(new RegExp(`TOOL_NOT_CONFIGURED.*: ${name} is not listed: `));
    }
  });

  it('--json carries the diagnostics with their tool ids', async () => {
    const parsed = JSON.parse(
      (await cli(['tools', 'list', '--json'], config('{ executablePath: "/nonexistent/chromium" }'))).stdout,
    ) as {
      tools: { name: string }[];
      diagnostics: { code: string; toolId?: string; message: string }[];
    };
    expect(parsed.tools.map((tool) => tool.name)).not.toContain('browser');
    const absent = parsed.diagnostics.filter((d) => d.code === 'TOOL_NOT_CONFIGURED').map((d) => d.toolId);
    expect(absent).toEqual(
      expect.arrayContaining(['core:core:browser', 'core:core:message', 'core:core:canvas', 'core:core:nodes']),
    );
    expect(parsed.diagnostics.find((d) => d.toolId === 'core:core:browser')?.message).toMatch(
      /browser\.executablePath/,
    );
  });

  it.skipIf(!CHROMIUM)('lists browser where Chromium runs', async () => {
    const parsed = JSON.parse((await cli(['tools', 'list', '--json'], config('{}'))).stdout) as {
      tools: { name: string }[];
    };
    expect(parsed.tools.map((tool) => tool.name)).toContain('browser');
  });
});
