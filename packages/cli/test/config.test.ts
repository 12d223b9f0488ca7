import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemProgramOnPath } from '@tool-search/testing';
import { cli, folder } from './helpers.js';

describe('config check', () => {
  it('accepts a valid config', async () => {
    const cwd = folder({ 'tool-search.json': '{ tools: { profile: "coding" } }' });
    const { code, stdout } = await cli(['config', 'check', '--json'], cwd);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true });
  });

  it('says why web_search is not listed (no key) and what to set, without failing --strict', async () => {
    const cwd = folder({ 'tool-search.json': '{ plugins: { core: {} } }' });
    const { code, stdout } = await cli(['config', 'check', '--json', '--strict'], cwd, {
      env: { PATH: process.env.PATH ?? '' },
    });
    const report = JSON.parse(stdout) as {
      notConfigured: { code: string; message: string }[];
      unavailable: { code: string }[];
    };
    // Only a tool that cannot run fails it: exec where bubblewrap is missing (a fresh machine), else nothing.
    expect(report.unavailable.map((entry) => entry.code)).toEqual(
      systemProgramOnPath('bubblewrap') ? [] : ['EXEC_HOST_UNAVAILABLE'],
    );
    expect(code).toBe(report.unavailable.length ? 1 : 0);
    expect(report.notConfigured).toContainEqual(
      expect.objectContaining({ code: 'TOOL_NOT_CONFIGURED', message: expect.stringContaining('web_search') }),
    );
    const text = await cli(['config', 'check'], cwd, { env: { PATH: process.env.PATH ?? '' } });
    expect(text.stdout).toContain('TOOL_NOT_CONFIGURED');
  });

  it('fails (exit 1) when exec is configured but bubblewrap cannot run: exec is not listed and the message says how to install it', async () => {
    const cwd = folder({ 'tool-search.json': '{ plugins: { core: {} } }' });
    const saved = process.env.PATH;
    process.env.PATH = cwd; // a PATH without bwrap (the plugin looks it up on this process's PATH)
    try {
      const { code, stdout } = await cli(['config', 'check', '--json'], cwd);
      expect(code).toBe(1);
      const report = JSON.parse(stdout) as { ok: boolean; unavailable: { code: string; message: string }[] };
      expect(report.ok).toBe(false);
      expect(report.unavailable).toContainEqual(
        expect.objectContaining({
          code: 'EXEC_HOST_UNAVAILABLE',
          message: expect.stringContaining('apt-get install -y bubblewrap'),
        }),
      );
      const text = await cli(['config', 'check'], cwd);
      expect(text.code).toBe(1);
      expect(text.stdout).toContain('not ok');
    } finally {
      process.env.PATH = saved;
    }
    // The same config where bubblewrap runs: ok (the failure above is bubblewrap's absence, nothing else).
    if (systemProgramOnPath('bubblewrap')) expect((await cli(['config', 'check'], cwd)).code).toBe(0);
  });

  it("fails (exit 1) naming the server and the command when a stdio MCP server's command does not exist (issue 41)", async () => {
    const cwd = folder({
      'tool-search.json': JSON.stringify({
        mcp: {
          servers: {
            ghost: { command: 'no-such-mcp-server-41' },
            here: { command: process.execPath, args: ['-e', ''] },
          },
        },
        mcpServers: { local: { command: './missing-server.sh' } },
      }),
    });
    const { code, stdout } = await cli(['config', 'check', '--json'], cwd);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { ok: boolean; unavailable: { code: string; details: unknown }[] };
    expect(report.ok).toBe(false);
    const missing = report.unavailable.filter((entry) => entry.code === 'MCP_COMMAND_NOT_FOUND');
    expect(missing.map((entry) => entry.details)).toEqual([
      { server: 'ghost', command: 'no-such-mcp-server-41' },
      { server: 'local', command: './missing-server.sh' },
    ]);
    const text = await cli(['config', 'check'], cwd);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/MCP_COMMAND_NOT_FOUND: MCP server "ghost": command "no-such-mcp-server-41"/);
    expect(text.stdout).toContain('not ok');
  });

  it("finds a stdio MCP server's command on the PATH its env gives, or relative to its cwd", async () => {
    const cwd = folder({ 'server.sh': '#!/bin/sh\nexit 0\n' });
    chmodSync(join(cwd, 'server.sh'), 0o755);
    mkdirSync(join(cwd, 'bin'));
    writeFileSync(join(cwd, 'bin', 'my-mcp-41'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    writeFileSync(
      join(cwd, 'tool-search.json'),
      JSON.stringify({
        mcp: {
          servers: {
            rel: { command: './server.sh' },
            onPath: { command: 'my-mcp-41', env: { PATH: join(cwd, 'bin') } },
          },
        },
      }),
    );
    const { stdout } = await cli(['config', 'check', '--json'], cwd);
    const report = JSON.parse(stdout) as { unavailable: { code: string }[] };
    expect(report.unavailable.filter((entry) => entry.code === 'MCP_COMMAND_NOT_FOUND')).toEqual([]);
  });

  it('accepts no config at all', async () => {
    expect((await cli(['config', 'check'])).code).toBe(0);
  });

  it('rejects a JSON5 syntax error with exit 1', async () => {
    const cwd = folder({ 'tool-search.json': '{ tools: { allow: [ }' });
    const { code, stderr } = await cli(['config', 'check'], cwd);
    expect(code).toBe(1);
    expect(stderr).toContain('CONFIG_UNREADABLE');
  });
});

describe('config show', () => {
  it('prints the resolved tools.toolSearch', async () => {
    const cwd = folder({ 'tool-search.json': '{ tools: { toolSearch: { mode: "tools", maxSearchLimit: 500 } } }' });
    const { code, stdout } = await cli(['config', 'show', '--json'], cwd);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).config.tools.toolSearch).toMatchObject({
      enabled: true,
      mode: 'tools',
      maxSearchLimit: 50,
      searchDefaultLimit: 8,
    });
  });

  it('redacts secrets', async () => {
    const cwd = folder({
      'tool-search.json':
        '{ provider: { baseURL: "http://x", model: "m", apiKey: "sk-secret" }, gateway: { auth: { token: "t0ken" } } }',
    });
    const { stdout } = await cli(['config', 'show'], cwd);
    expect(stdout).not.toContain('sk-secret');
    expect(stdout).not.toContain('t0ken');
  });

  it('redacts an MCP server OAuth client secret', async () => {
    const cwd = folder({
      'tool-search.json':
        '{ mcp: { servers: { linear: { url: "https://mcp.example/mcp", auth: { clientId: "app", clientSecret: "cl1ent-secret" } } } } }',
    });
    const { stdout } = await cli(['config', 'show'], cwd);
    expect(stdout).toContain('"clientId": "app"');
    expect(stdout).not.toContain('cl1ent-secret');
  });
});
