/**
 * `serve mcp --mcp-config <file>`: a Claude Desktop / Cursor / .mcp.json file
 * that cannot be used fails before anything is served, naming the file, the
 * path and the rule (the working case runs in mcp-server's conformance test).
 */
import { describe, expect, it } from 'vitest';
import { cli, folder } from './helpers.js';

describe('serve mcp --mcp-config', () => {
  it('exits 1 with CONFIG_UNREADABLE for a missing file', async () => {
    const { code, stderr } = await cli(['serve', 'mcp', '--mcp-config', 'missing.json']);
    expect(code).toBe(1);
    expect(stderr).toContain('CONFIG_UNREADABLE');
  });

  it('exits 1 naming the path and rule of a broken entry', async () => {
    const cwd = folder({
      'claude.json': JSON.stringify({ mcpServers: { files: { command: 'npx', autoApprove: [] } } }),
    });
    const { code, stderr } = await cli(['serve', 'mcp', '--mcp-config', 'claude.json'], cwd);
    expect(code).toBe(1);
    expect(stderr).toContain('CONFIG_INVALID');
    expect(stderr).toContain('/mcpServers/files/autoApprove');
  });

  it('exits 1 when the file names a server the config already has', async () => {
    const cwd = folder({
      'tool-search.json': JSON.stringify({ mcpServers: { files: { command: 'a' } } }),
      'claude.json': JSON.stringify({ mcpServers: { files: { command: 'b' } } }),
    });
    const { code, stderr } = await cli(['serve', 'mcp', '--mcp-config', 'claude.json'], cwd);
    expect(code).toBe(1);
    expect(stderr).toContain('CONFIG_INVALID');
    expect(stderr).toContain('/mcpServers/files');
  });
});
