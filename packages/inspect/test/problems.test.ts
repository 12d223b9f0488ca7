/**
 * Source problems on the catalog and live views: a server that fails to start (MCP_SERVER_FAILED) and an HTTP
 * server that needs `mcp login` (MCP_AUTH_REQUIRED, plugin-mcp's OAuth fixture), each with its diagnostic.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileTokenStore } from '@tool-search/plugin-mcp';
import { createToolSearchKernel, type Preset } from '@tool-search/preset';
import { createLiveFeed, startInspectServer, type InspectServer } from '../src/index.js';

const OAUTH_FIXTURE = fileURLToPath(new URL('../../plugin-mcp/test/fixtures/oauth-server.mjs', import.meta.url));

describe('source problems', () => {
  let oauth: ChildProcess;
  let preset: Preset;
  let server: InspectServer;

  beforeAll(async () => {
    oauth = spawn(process.execPath, [OAUTH_FIXTURE], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise<string>((resolve, reject) => {
      oauth.stdout!.on('data', (chunk: Buffer) => {
        const match = /listening (\S+)/.exec(String(chunk));
        if (match) resolve(match[1]!);
      });
      oauth.once('exit', (code) => reject(new Error(`oauth fixture exited with ${code}`)));
    });
    const config = {
      plugins: { 'fake-catalog': { tools: 5, core: false } },
      mcpServers: { broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] }, notes: { url } },
    };
    const live = createLiveFeed();
    preset = await createToolSearchKernel(config, {
      mcpClient: { tokenStore: fileTokenStore(mkdtempSync(join(tmpdir(), 'tool-search-inspect-tokens-'))) },
    });
    live.source(preset.mcpServers);
    server = await startInspectServer({ kernel: preset.kernel, config, live, countTokens: false });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await preset?.kernel.close();
    oauth?.kill();
  });

  it('lists a failed server and one that needs mcp login, each with its diagnostic and fix', async () => {
    const catalog = (await (await fetch(new URL('/api/catalog', server.url))).json()) as {
      tools: unknown[];
      problems: { source: string; kind: string; code: string; message: string; fix?: string }[];
    };
    expect(catalog.tools).toHaveLength(5);
    expect(catalog.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'broken', kind: 'failed', code: 'MCP_SERVER_FAILED' }),
        expect.objectContaining({
          source: 'notes',
          kind: 'auth-required',
          code: 'MCP_AUTH_REQUIRED',
          fix: 'tool-search mcp login notes',
        }),
      ]),
    );
    const live = (await (await fetch(new URL('/api/live', server.url))).json()) as {
      servers: { name: string; state: string; error?: { code: string } }[];
    };
    expect(live.servers.find((s) => s.name === 'broken')).toMatchObject({
      state: 'failed',
      error: { code: 'MCP_SERVER_FAILED' },
    });
    expect(live.servers.find((s) => s.name === 'notes')?.state).toMatch(/auth-required|failed/);
  }, 60_000);

  it('answers many concurrent clients, each with its own run', async () => {
    const queries = ['read a file', 'create an invoice', 'list pods', 'send a message', 'zzqx'];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(new URL(`/api/search?q=${encodeURIComponent(queries[i % queries.length]!)}`, server.url)).then(
          (r) => r.json() as Promise<{ result: { query: string } }>,
        ),
      ),
    );
    answers.forEach((answer, i) => expect(answer.result.query).toBe(queries[i % queries.length]));
  }, 120_000);
});
