/**
 * Issue 26: inputs that killed or froze the whole process, fed to a real `tool-search serve mcp --http` child
 * through the official MCP SDK client. Each hostile call must come back as a result (or a coded error) while the
 * process keeps serving: a later call is answered and the child has not exited. Before the fix, `read` of a
 * 600 MB one-line file threw an uncaught RangeError from readline's stream handler and the child died; a page of
 * nested <div>s froze its event loop for minutes.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startReplica, type Replica } from '../src/replicas.js';
import { REPLICA_BUDGET_MS, REPLICA_START_MS, replicaPrerequisites } from './replica-prerequisites.js';

const { built } = replicaPrerequisites('the hostile-input front-end test', { redis: false });

describe.runIf(built)('serve mcp --http keeps serving through hostile tool inputs', () => {
  let dir: string;
  let replica: Replica;
  let pages: Server;
  let pagesUrl: string;
  let client: Client;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tool-search-hostile-'));
    const workspace = join(dir, 'ws');
    execFileSync('mkdir', ['-p', workspace]);
    execFileSync('truncate', ['-s', '600M', join(workspace, 'huge.txt')]);
    execFileSync('mkfifo', [join(workspace, 'pipe')]);
    await writeFile(join(workspace, 'ok.txt'), 'still here\n');
    const nested = `<!doctype html><html><body>${'<div>'.repeat(30_000)}deep text${'</div>'.repeat(30_000)}</body></html>`;
    pages = createServer((req, res) => {
      if (req.url === '/nested') res.writeHead(200, { 'content-type': 'text/html' }).end(nested);
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('plain page');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    const config = join(dir, 'tool-search.json');
    await writeFile(
      config,
      JSON.stringify({
        plugins: { core: { workspace } },
        tools: { web: { fetch: { allowPrivate: true, timeoutSeconds: 10 } }, exec: { applyPatch: { enabled: true } } },
      }),
    );
    replica = await startReplica({
      id: 'hostile',
      args: ['serve', 'mcp', '--config', config, '--http', '0', '--refresh', '0'],
      cwd: dir,
      startTimeoutMs: REPLICA_START_MS,
    });
    client = new Client({ name: 'hostile-inputs-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(replica.url)));
  }, REPLICA_BUDGET_MS);
  afterAll(async () => {
    await client?.close();
    await replica?.stop();
    await new Promise((resolve) => pages?.close(resolve));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const call = async (id: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name: 'tool_call', arguments: { id, args } }, undefined, {
      timeout: 120_000,
    })) as CallToolResult;
    return {
      text: (result.content as { text?: string }[]).map((c) => c.text ?? '').join('\n'),
      structured: result.structuredContent as { error?: { code?: string } } | undefined,
    };
  };
  const alive = async () => {
    expect(replica.child.exitCode, replica.output()).toBeNull();
    expect((await call('core:core:read', { path: 'ok.txt' })).text).toContain('still here');
  };

  it('read of a 600 MB single-line file answers with the line cut, and the process serves the next call', async () => {
    const { text } = await call('core:core:read', { path: 'huge.txt' });
    expect(text).toContain('cut at 50000 characters');
    await alive();
  }, 180_000);

  it('edit / apply_patch of the 600 MB file and read of a FIFO answer with coded errors', async () => {
    expect(
      (await call('core:core:edit', { path: 'huge.txt', oldText: 'a', newText: 'b' })).structured?.error?.code,
    ).toBe('FS_FILE_TOO_LARGE');
    const input = ['*** Begin Patch', '*** Update File: huge.txt', '@@', '-a', '+b', '*** End Patch'].join('\n');
    expect((await call('core:core:apply_patch', { input })).structured?.error?.code).toBe('FS_FILE_TOO_LARGE');
    expect((await call('core:core:read', { path: 'pipe' })).structured?.error?.code).toBe('FILE_NOT_FOUND');
    await alive();
  }, 180_000);

  it('web_fetch of 30,000 nested divs answers, and a concurrent call is answered meanwhile', async () => {
    const hostile = call('core:core:web_fetch', { url: `${pagesUrl}/nested`, extractMode: 'text' });
    const cheap = await call('core:core:web_fetch', { url: `${pagesUrl}/plain` });
    expect(cheap.text).toContain('plain page');
    expect((await hostile).text).toContain('deep text');
    await alive();
  }, 180_000);
});
