/**
 * Searches a new user made in their first ten minutes, over the real catalog they had: the core tools plus the
 * reference MCP servers (everything, memory, filesystem) started over stdio. Regression cases of search phase 3
 * (packages/search/README.md): each one names why it missed.
 */
import { mkdtempSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel, RunApi } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { indexForRun } from '@tool-search/search';

const require = createRequire(import.meta.url);
const server = (pkg: string, ...args: string[]) => ({
  command: process.execPath,
  args: [join(dirname(require.resolve(`@modelcontextprotocol/${pkg}/package.json`)), 'dist', 'index.js'), ...args],
});

let kernel: Kernel;
let run: RunApi;
beforeAll(async () => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'preset-misses-')));
  ({ kernel } = await createToolSearchKernel({
    plugins: { core: { workspace } },
    mcp: {
      servers: {
        everything: server('server-everything'),
        memory: { ...server('server-memory'), env: { MEMORY_FILE_PATH: join(workspace, 'memory.jsonl') } },
        filesystem: server('server-filesystem', workspace),
      },
    },
  }));
  run = await kernel.createRun();
}, 60_000);
afterAll(() => kernel?.close());

const ids = (query: string, limit = 5) =>
  indexForRun(run)
    .search(query, { limit })
    .hits.map((hit) => hit.id);

describe('search misses a new user found', () => {
  it('the catalog is the real one: core tools and the three servers listed', () => {
    const owners = new Set(run.catalog.map((tool) => tool.owner));
    expect([...owners].sort()).toEqual(['core', 'everything', 'filesystem', 'memory']);
  });

  it('"read a file": a file-reading tool first, the core read above memory_get', () => {
    const ranked = ids('read a file', 20);
    expect(ranked[0]).toMatch(/^(core:core:read|mcp:filesystem:read_(text_)?file)$/);
    expect(ranked).toContain('core:core:read');
    const memory = ranked.indexOf('core:core:memory_get');
    if (memory >= 0) expect(ranked.indexOf('core:core:read')).toBeLessThan(memory);
  });

  it('"add two numbers": "add" with numbers is a sum, not a new item (get-sum first)', () => {
    expect(ids('add two numbers')[0]).toBe('mcp:everything:get-sum');
    expect(ids('add 3 and 4')[0]).toBe('mcp:everything:get-sum');
    // "add" of a thing stays a create.
    expect(ids('add observations to an entity')[0]).toBe('mcp:memory:add_observations');
  });

  it('"remember a fact about a person" finds the memory server (remember ~ memory; the synonym cap spares small catalogs)', () => {
    const ranked = ids('remember a fact about a person', 5);
    expect(ranked.some((id) => id.startsWith('mcp:memory:'))).toBe(true);
  });

  it('naming a tool finds it: exact, spaced, server-prefixed, misspelt, select:', () => {
    expect(ids('get sum')[0]).toBe('mcp:everything:get-sum');
    expect(ids('memory.create_entities')[0]).toBe('mcp:memory:create_entities');
    expect(ids('mcp__memory__read_graph')[0]).toBe('mcp:memory:read_graph');
    expect(ids('create_entites')[0]).toBe('mcp:memory:create_entities');
    expect(ids('select:read,get-sum')).toEqual(['core:core:read', 'mcp:everything:get-sum']);
  });
});
