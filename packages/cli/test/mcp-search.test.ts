import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, folder } from './helpers.js';

const require = createRequire(import.meta.url);
const bin = (pkg: string) => join(dirname(require.resolve(`${pkg}/package.json`)), 'dist', 'index.js');

// Issue 5: `tool-search tools search` finds real MCP servers' tools by what they do.
describe('tools search over real MCP servers', () => {
  const shared = mkdtempSync(join(tmpdir(), 'tool-search-fs-'));
  writeFileSync(join(shared, 'notes.txt'), 'hello');
  const config = JSON.stringify({
    mcp: {
      servers: {
        everything: { command: process.execPath, args: [bin('@modelcontextprotocol/server-everything'), 'stdio'] },
        filesystem: { command: process.execPath, args: [bin('@modelcontextprotocol/server-filesystem'), shared] },
      },
    },
  });
  const cwd = folder({ 'tool-search.json': config });
  const top = async (query: string) => {
    const result = await cli(['tools', 'search', query, '--json', '--limit', '3'], cwd);
    expect(result.code).toBe(0);
    return (JSON.parse(result.stdout) as { hits: { id: string }[] }).hits.map((hit) => hit.id);
  };

  it('finds everything’s echo by what it does', async () => {
    expect(await top('echo back the message I send')).toContain('mcp:everything:echo');
  }, 60_000);

  it('finds the filesystem tools by what they do', async () => {
    const read = await top('read the contents of a text file');
    expect(read.some((id) => id.startsWith('mcp:filesystem:read'))).toBe(true);
    expect(await top('list the files in a directory')).toContain('mcp:filesystem:list_directory');
  }, 60_000);
});
