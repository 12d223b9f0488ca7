/**
 * OAuth against a real authorization server (the MCP SDK's server auth pieces,
 * test/fixtures/oauth-server.mjs): no token is MCP_AUTH_REQUIRED naming the
 * login command; `mcpLogin` runs the loopback browser flow and keeps tokens in
 * owner-only files; later runs use them and refresh them without a login;
 * logout forgets them; tokens never go to a server whose URL changed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Run } from '@tool-search/kernel';
import {
  fileTokenStore,
  loopbackAuthorizer,
  mcpLogin,
  mcpLogout,
  mcpPlugin,
  type McpTokenStore,
} from '../src/index.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/oauth-server.mjs', import.meta.url));

/** The user's browser: follows the authorization server's redirect back to the loopback listener. */
const browser = { open: async (url: URL) => void (await (await fetch(url)).text()), timeoutMs: 10_000 };

async function startOAuthServer(): Promise<{
  url: string;
  child: ChildProcess;
  stats(): Promise<Record<string, number>>;
}> {
  const child = spawn(process.execPath, [FIXTURE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\S+)/.exec(String(chunk));
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`oauth fixture exited with ${code}`)));
  });
  return {
    url,
    child,
    stats: async () => (await (await fetch(new URL('/stats', url))).json()) as Record<string, number>,
  };
}

async function runWith(url: string, store: McpTokenStore): Promise<{ run: Run; close(): Promise<void> }> {
  const kernel = createKernel({ plugins: [mcpPlugin({ servers: { notes: { url } }, tokenStore: store })] });
  return { run: await kernel.createRun(), close: () => kernel.close() };
}

describe('OAuth with an MCP server', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const stateDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugin-mcp-oauth-'));
    dirs.push(dir);
    return dir;
  };
  let server: Awaited<ReturnType<typeof startOAuthServer>>;

  beforeAll(async () => {
    server = await startOAuthServer();
    children.push(server.child);
  });
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => {
    for (const child of children) child.kill();
  });

  it('reports a server that needs login and has no token as MCP_AUTH_REQUIRED naming `mcp login`', async () => {
    const { run, close } = await runWith(server.url, fileTokenStore(stateDir()));
    try {
      const diagnostic = run.diagnostics.find((d) => d.details?.server === 'notes');
      expect(diagnostic).toMatchObject({ code: 'MCP_AUTH_REQUIRED', level: 'error', details: { server: 'notes' } });
      expect(diagnostic?.message).toContain('tool-search mcp login notes');
      expect(run.listed).toEqual([]);
    } finally {
      await close();
    }
  });

  it('logs in through the loopback redirect and keeps the tokens in owner-only files that later runs use', async () => {
    const dir = stateDir();
    const authorizer = loopbackAuthorizer(browser);
    try {
      expect(await mcpLogin('notes', { url: server.url }, { store: fileTokenStore(dir), authorizer })).toEqual({
        toolCount: 2,
      });
    } finally {
      await authorizer.close();
    }
    expect(statSync(join(dir, 'mcp-auth')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'mcp-auth', 'notes.json')).mode & 0o777).toBe(0o600);
    const record = await fileTokenStore(dir).load('notes');
    expect(record).toMatchObject({
      serverUrl: server.url,
      tokens: { token_type: expect.stringMatching(/bearer/i) },
      client: { client_id: expect.any(String) },
    });

    const { run, close } = await runWith(server.url, fileTokenStore(dir));
    try {
      expect(run.diagnostics).toEqual([]);
      const outcome = await run.call('mcp:notes:whoami', {});
      expect(outcome).toMatchObject({
        status: 'ok',
        result: { content: [{ type: 'text', text: record?.client?.client_id }] },
      });
    } finally {
      await close();
    }
  });

  it('refreshes an expired access token without a login', async () => {
    const dir = stateDir();
    const authorizer = loopbackAuthorizer(browser);
    await mcpLogin('notes', { url: server.url }, { store: fileTokenStore(dir), authorizer }).finally(() =>
      authorizer.close(),
    );
    const before = (await fileTokenStore(dir).load('notes'))?.tokens?.access_token;
    const { refreshes, authorizations } = await server.stats();
    await fetch(new URL('/expire', server.url), { method: 'POST' });
    const { run, close } = await runWith(server.url, fileTokenStore(dir));
    try {
      expect(run.diagnostics).toEqual([]);
      expect(await run.call('mcp:notes:whoami', {})).toMatchObject({ status: 'ok' });
    } finally {
      await close();
    }
    expect(await server.stats()).toMatchObject({ authorizations, refreshes: (refreshes ?? 0) + 1 });
    expect((await fileTokenStore(dir).load('notes'))?.tokens?.access_token).not.toBe(before);
  });

  it('forgets everything on logout: the next run needs a login again', async () => {
    const dir = stateDir();
    const authorizer = loopbackAuthorizer(browser);
    await mcpLogin('notes', { url: server.url }, { store: fileTokenStore(dir), authorizer }).finally(() =>
      authorizer.close(),
    );
    expect(await mcpLogout('notes', fileTokenStore(dir))).toBe(true);
    expect(await mcpLogout('notes', fileTokenStore(dir))).toBe(false);
    const { run, close } = await runWith(server.url, fileTokenStore(dir));
    try {
      expect(run.diagnostics).toContainEqual(expect.objectContaining({ code: 'MCP_AUTH_REQUIRED' }));
    } finally {
      await close();
    }
  });

  it('steps up on insufficient_scope: without a browser it says to log in, and the next login asks for the wider scope', async () => {
    const dir = stateDir();
    const login = async () => {
      const authorizer = loopbackAuthorizer(browser);
      await mcpLogin('notes', { url: server.url }, { store: fileTokenStore(dir), authorizer }).finally(() =>
        authorizer.close(),
      );
    };
    await login();
    expect((await fileTokenStore(dir).load('notes'))?.tokens?.scope).toBe('notes:read');
    const first = await runWith(server.url, fileTokenStore(dir));
    try {
      expect(await first.run.call('mcp:notes:whoami', {})).toMatchObject({ status: 'ok' });
      expect(await first.run.call('mcp:notes:write_note', {})).toMatchObject({
        status: 'error',
        error: { code: 'MCP_AUTH_REQUIRED', message: expect.stringContaining('tool-search mcp login notes') },
      });
    } finally {
      await first.close();
    }
    await login();
    expect((await fileTokenStore(dir).load('notes'))?.tokens?.scope?.split(' ').sort()).toEqual([
      'notes:read',
      'notes:write',
    ]);
    const second = await runWith(server.url, fileTokenStore(dir));
    try {
      expect(await second.run.call('mcp:notes:write_note', {})).toMatchObject({ status: 'ok' });
    } finally {
      await second.close();
    }
  });

  it('steps up within the call when a browser step is available', async () => {
    const dir = stateDir();
    const authorizer = loopbackAuthorizer(browser);
    await mcpLogin('notes', { url: server.url }, { store: fileTokenStore(dir), authorizer });
    const kernel = createKernel({
      plugins: [mcpPlugin({ servers: { notes: { url: server.url } }, tokenStore: fileTokenStore(dir), authorizer })],
    });
    try {
      const run = await kernel.createRun();
      expect(await run.call('mcp:notes:write_note', {})).toMatchObject({
        status: 'ok',
        result: { content: [{ text: 'written' }] },
      });
    } finally {
      await kernel.close();
      await authorizer.close();
    }
  });

  it("leaves the operator's own Authorization header alone: a 401 to it is a server failure, not an OAuth flow", async () => {
    const { registrations } = await server.stats();
    const kernel = createKernel({
      plugins: [
        mcpPlugin({ servers: { notes: { url: server.url, headers: { Authorization: 'Bearer operator-key' } } } }),
      ],
    });
    try {
      const run = await kernel.createRun();
      expect(run.diagnostics).toContainEqual(
        expect.objectContaining({ code: 'MCP_SERVER_FAILED', details: expect.objectContaining({ server: 'notes' }) }),
      );
    } finally {
      await kernel.close();
    }
    expect((await server.stats()).registrations).toBe(registrations);
  });

  it('never sends tokens kept for one URL to a server whose URL changed', async () => {
    const other = await startOAuthServer();
    children.push(other.child);
    const dir = stateDir();
    const authorizer = loopbackAuthorizer(browser);
    await mcpLogin('notes', { url: server.url }, { store: fileTokenStore(dir), authorizer }).finally(() =>
      authorizer.close(),
    );
    const { run, close } = await runWith(other.url, fileTokenStore(dir));
    try {
      expect(run.diagnostics).toContainEqual(expect.objectContaining({ code: 'MCP_AUTH_REQUIRED' }));
    } finally {
      await close();
    }
    expect(await other.stats()).toMatchObject({ bearerRequests: 0, calls: 0, refreshes: 0 });
  });
});

describe('the loopback redirect listener', () => {
  it('ignores a redirect whose state does not match, and takes the one that does', async () => {
    let redirect = '';
    const authorizer = loopbackAuthorizer({
      open: async () => {
        const forged = await fetch(`${redirect}?code=forged&state=evil`);
        expect(forged.status).toBe(400);
        await fetch(`${redirect}?code=real&state=expected`);
      },
    });
    try {
      redirect = await authorizer.redirectUrl('notes', undefined);
      expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect(await authorizer.authorize('notes', new URL('https://as.example/authorize'), 'expected')).toBe('real');
    } finally {
      await authorizer.close();
    }
  });
});
