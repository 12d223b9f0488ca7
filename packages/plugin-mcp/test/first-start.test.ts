/**
 * Issue 41: a server started with `npx -y` took 26–30 s to download on its first run against the 8 s start budget, so
 * it loaded 0 tools, silently. A package runner's first start now gets `firstStartTimeoutMs`: a listing waits
 * `connectTimeoutMs`, then the run reports `MCP_SERVER_STARTING` (a warning naming the server) and the start goes on;
 * once it lists, `onToolsChanged` fires and the next run has its tools. The "download" here is a fake `npx` that waits
 * for a file the test writes, then runs a real server.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { isPackageRunner, mcpPlugin, McpErrors } from '../src/index.js';
import { FIXTURE_PATH, isAlive } from './helpers.js';

/** A fake package runner named `npx`: it "downloads" until `<dir>/downloaded` exists, then starts the server. */
function fakeNpx(): { dir: string; command: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-first-start-'));
  const command = join(dir, 'npx');
  writeFileSync(
    command,
    `#!/bin/sh\nwhile [ ! -e ${JSON.stringify(join(dir, 'downloaded'))} ]; do sleep 0.05; done\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(FIXTURE_PATH)} dynamic\n`,
  );
  chmodSync(command, 0o755);
  return { dir, command };
}

describe('the first start of a server launched by a package runner', () => {
  it('reports MCP_SERVER_STARTING instead of failing, then joins the catalog when the start ends', async () => {
    const { dir, command } = fakeNpx();
    let joined!: () => void;
    const changed = new Promise<void>((resolve) => (joined = resolve));
    const plugin = mcpPlugin({
      servers: { slow: { command, args: ['-y', '@acme/mcp-server'] } },
      connectTimeoutMs: 300,
      onToolsChanged: (server) => server === 'slow' && joined(),
    });
    const kernel = createKernel({ plugins: [plugin] });
    try {
      const first = await kernel.createRun();
      expect(first.catalog.filter((tool) => tool.id.startsWith('mcp:slow:'))).toEqual([]);
      expect(first.diagnostics).toContainEqual(
        expect.objectContaining({
          code: McpErrors.MCP_SERVER_STARTING,
          level: 'warning',
          details: expect.objectContaining({ server: 'slow', reason: 'starting' }),
        }),
      );
      // A second run while it still starts waits on the same start and says the same.
      const second = await kernel.createRun();
      expect(second.diagnostics.map((d) => d.code)).toContain(McpErrors.MCP_SERVER_STARTING);
      expect(plugin.servers()[0]!.state).toBe('connecting');
      await first.close();
      await second.close();

      writeFileSync(join(dir, 'downloaded'), '');
      await changed;
      const ready = await kernel.createRun();
      expect(ready.catalog.map((tool) => tool.id)).toContain('mcp:slow:echo');
      expect(ready.diagnostics.map((d) => d.code)).not.toContain(McpErrors.MCP_SERVER_STARTING);
      await ready.close();
    } finally {
      await kernel.close();
    }
    expect(plugin.servers()[0]!.pids.filter(isAlive)).toEqual([]);
  }, 60_000);

  it('is still bounded: a start past firstStartTimeoutMs fails with reason timeout', async () => {
    const { command } = fakeNpx(); // never "downloads"
    const plugin = mcpPlugin({
      servers: { stuck: { command, args: ['-y', 'pkg'] } },
      connectTimeoutMs: 200,
      firstStartTimeoutMs: 400,
    });
    const kernel = createKernel({ plugins: [plugin] });
    try {
      const first = await kernel.createRun();
      expect(first.diagnostics.map((d) => d.code)).toContain(McpErrors.MCP_SERVER_STARTING);
      await expect.poll(() => plugin.servers()[0]!.state, { timeout: 20_000 }).toBe('failed');
      expect(plugin.servers()[0]!.lastError).toMatchObject({ code: McpErrors.MCP_SERVER_FAILED, reason: 'timeout' });
    } finally {
      await kernel.close();
    }
  }, 60_000);

  it('knows the package runners', () => {
    const runner = (command: string, ...args: string[]) => isPackageRunner({ command, args });
    expect(runner('npx', '-y', 'pkg')).toBe(true);
    expect(runner('/usr/local/bin/npx', 'pkg')).toBe(true);
    expect(runner('npm', 'exec', '--yes', 'pkg')).toBe(true);
    expect(runner('pnpm', 'dlx', 'pkg')).toBe(true);
    expect(runner('bunx', 'pkg')).toBe(true);
    expect(runner('uvx', 'mcp-server-git')).toBe(true);
    expect(runner('npm', 'run', 'server')).toBe(false);
    expect(runner('node', 'server.js')).toBe(false);
    expect(isPackageRunner({ url: 'https://host/mcp' })).toBe(false);
  });
});
