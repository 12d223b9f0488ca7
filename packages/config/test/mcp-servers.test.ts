/**
 * `mcpServers` (Claude Desktop / Cursor / .mcp.json) next to `mcp.servers`:
 * accepted verbatim, merged, checked with paths, and read from such a file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { configIssues, loadMcpServersFile, mcpServersOf, validateConfig, withMcpServers } from '../src/index.js';

function caught(fn: () => unknown): ToolSearchError {
  try {
    fn();
  } catch (error) {
    if (ToolSearchError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

describe('mcpServers', () => {
  it('accepts the Claude Desktop, Cursor and .mcp.json shapes verbatim', () => {
    const config = validateConfig({
      mcpServers: {
        desktop: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
          env: { DEBUG: '1' },
        },
        code: { type: 'stdio', command: 'node', args: ['server.js'], cwd: '/srv' },
        remote: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
        cursor: { url: 'http://127.0.0.1:3000/mcp' },
        legacy: { type: 'sse', url: 'http://127.0.0.1:3001/sse' },
      },
    });
    expect(mcpServersOf(config)).toEqual({
      desktop: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { DEBUG: '1' } },
      code: { command: 'node', args: ['server.js'], cwd: '/srv' },
      remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
      cursor: { url: 'http://127.0.0.1:3000/mcp' },
      legacy: { url: 'http://127.0.0.1:3001/sse' },
    });
  });

  it('merges with mcp.servers and refuses one name in both', () => {
    expect(mcpServersOf({ mcp: { servers: { a: { command: 'a' } } }, mcpServers: { b: { command: 'b' } } })).toEqual({
      a: { command: 'a' },
      b: { command: 'b' },
    });
    const error = caught(() =>
      mcpServersOf({ mcp: { servers: { a: { command: 'a' } } }, mcpServers: { a: { url: 'http://x/mcp' } } }),
    );
    expect(error).toMatchObject({ code: ErrorCode.CONFIG_INVALID, path: '/mcpServers/a', rule: 'unique' });
  });

  it('adds the servers of a client config file, refusing a name the config has', () => {
    expect(
      withMcpServers({ mcpServers: { a: { command: 'a' } } }, { b: { command: 'b' } }, 'f.json').mcpServers,
    ).toEqual({ a: { command: 'a' }, b: { command: 'b' } });
    const error = caught(() =>
      withMcpServers({ mcpServers: { a: { command: 'a' } } }, { a: { command: 'b' } }, 'f.json'),
    );
    expect(error).toMatchObject({ code: ErrorCode.CONFIG_INVALID, path: '/mcpServers/a', rule: 'unique' });
  });

  it('names the path and rule of a broken entry', () => {
    expect(configIssues({ mcpServers: { a: { type: 'http', command: 'x' } } })).toEqual([
      expect.objectContaining({ path: '/mcpServers/a/type', rule: 'const' }),
    ]);
    expect(configIssues({ mcpServers: { a: { type: 'stdio' } } })).toEqual([
      expect.objectContaining({ path: '/mcpServers/a/command', rule: 'required' }),
    ]);
    expect(configIssues({ mcpServers: { a: { command: 'x', autoApprove: [] } } })).toEqual([
      expect.objectContaining({ path: '/mcpServers/a/autoApprove', rule: 'additionalProperties' }),
    ]);
    expect(configIssues({ mcpServers: { 'my server': { command: 'x' } } })).toEqual([
      expect.objectContaining({ path: '/mcpServers/my server', rule: 'propertyNames' }),
    ]);
    expect(configIssues({ mcpServers: { a: { url: 'ftp://x' } } })).toEqual([
      expect.objectContaining({ path: '/mcpServers/a/url', rule: 'pattern' }),
    ]);
  });
});

describe('loadMcpServersFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tool-search-mcp-config-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads the mcpServers of a client config and ignores its other keys', async () => {
    const file = join(dir, 'claude_desktop_config.json');
    await writeFile(
      file,
      JSON.stringify({
        globalShortcut: 'Ctrl+Space',
        mcpServers: { files: { command: 'npx', args: ['-y', 'server'] } },
      }),
    );
    expect(await loadMcpServersFile(file)).toEqual({ files: { command: 'npx', args: ['-y', 'server'] } });
  });

  it('fails with CONFIG_UNREADABLE, or CONFIG_INVALID naming the path', async () => {
    await expect(loadMcpServersFile(join(dir, 'missing.json'))).rejects.toMatchObject({
      code: ErrorCode.CONFIG_UNREADABLE,
    });
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{ mcpServers: { a: ');
    await expect(loadMcpServersFile(broken)).rejects.toMatchObject({ code: ErrorCode.CONFIG_UNREADABLE });
    const none = join(dir, 'none.json');
    await writeFile(none, '{ "servers": {} }');
    await expect(loadMcpServersFile(none)).rejects.toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
      path: '/mcpServers',
      rule: 'required',
    });
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ mcpServers: { a: { command: '' } } }));
    await expect(loadMcpServersFile(bad)).rejects.toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
      path: '/mcpServers/a/command',
      rule: 'minLength',
    });
  });
});

describe('mcp.servers.<name>.alwaysVisible', () => {
  it('is read by mcpPinsOf and kept out of the connection settings mcpServersOf gives plugin-mcp', async () => {
    const { mcpPinsOf, mcpServersOf, configIssues } = await import('../src/index.js');
    const config = {
      mcp: {
        servers: {
          all: { command: 'node', alwaysVisible: true },
          some: { url: 'http://127.0.0.1:1/mcp', alwaysVisible: ['echo'] },
          none: { command: 'node', alwaysVisible: false },
        },
      },
    };
    expect(configIssues(config)).toEqual([]);
    expect(mcpPinsOf(config)).toEqual({ all: true, some: ['echo'] });
    expect(mcpServersOf(config)).toEqual({
      all: { command: 'node' },
      some: { url: 'http://127.0.0.1:1/mcp' },
      none: { command: 'node' },
    });
    expect(configIssues({ mcp: { servers: { s: { command: 'node', alwaysVisible: [] } } } })).toMatchObject([
      { path: '/mcp/servers/s/alwaysVisible' },
    ]);
  });
});
