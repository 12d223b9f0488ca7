import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';
import { mcpPlugin } from '@tool-search/plugin-mcp';
import { checkSourceConformance } from '@tool-search/testing';

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

// The conformance checks run against the repo's own tool sources.
describe('conformance of the real sources', () => {
  it('the fake catalog passes', async () => {
    const report = await checkSourceConformance(() => fakeCatalogPlugin({ tools: 50, core: true }));
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.tools).toBe(75);
  });

  it('the MCP plugin over a real server passes', async () => {
    const report = await checkSourceConformance(() =>
      mcpPlugin({ servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }),
    );
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.tools).toBeGreaterThan(5);
  }, 60_000);
});
