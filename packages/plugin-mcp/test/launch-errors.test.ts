/**
 * A server launched through `npx` whose package does not exist: the failure
 * quotes npm's line naming the package, not npm's closing boilerplate. The
 * registry is a local HTTP server answering 404 as the npm registry does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { mcpPlugin } from '../src/index.js';

describe('an npx launch of a package that does not exist', () => {
  let registry: Server;
  let url: string;
  const cache = mkdtempSync(join(tmpdir(), 'plugin-mcp-npm-'));

  beforeAll(async () => {
    registry = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'Not found' }));
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(registry.address() as { port: number }).port}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => registry.close(resolve));
    rmSync(cache, { recursive: true, force: true });
  });

  it('keeps the stderr line that names the package in MCP_SERVER_FAILED', async () => {
    const env = { npm_config_registry: url, npm_config_cache: cache, npm_config_update_notifier: 'false' };
    const plugin = mcpPlugin({
      connectTimeoutMs: 30_000,
      servers: { acme: { command: 'npx', args: ['-y', '@acme/no-such-mcp-server@1.2.3'], env } },
    });
    const kernel = createKernel({ plugins: [plugin], sourceTimeoutMs: 40_000 });
    try {
      const run = await kernel.createRun();
      const failure = run.diagnostics.find((d) => d.code === 'MCP_SERVER_FAILED');
      expect(failure).toMatchObject({ details: { server: 'acme', reason: 'exit' } });
      expect(failure?.message).toMatch(/no-such-mcp-server/);
      expect(failure?.message).not.toMatch(/A complete log of this run/);
    } finally {
      await kernel.close();
    }
  }, 60_000);
});
