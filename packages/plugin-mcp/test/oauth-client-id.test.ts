/**
 * How the client identifies itself to an authorization server, against a hand-written loopback authorization server
 * in front of a v2-SDK MCP server (test/fixtures/oauth-modern-server.mjs, speaking the OAuth wire formats): a client
 * ID metadata document where the server advertises `client_id_metadata_document_supported` (the server fetches the
 * HTTPS document; no registration), dynamic registration where it does not, a pre-registered `clientId` either way.
 * Each ends with a tool call through the bearer-guarded MCP server, whose `whoami` names the token's client.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import {
  loopbackAuthorizer,
  mcpLogin,
  mcpPlugin,
  memoryTokenStore,
  parseMcpOptions,
  type McpOAuthConfig,
  type McpTokenStore,
} from '../src/index.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/oauth-modern-server.mjs', import.meta.url));
const browser = { open: async (url: URL) => void (await (await fetch(url)).text()), timeoutMs: 30_000 };

interface Stats {
  registrations: number;
  metadataFetches: number;
  authorizations: number;
  tokens: number;
  calls: number;
}

async function startAuthServer(
  mode: 'cimd' | 'dcr',
  ca: string,
): Promise<{ url: string; child: ChildProcess; stats(): Promise<Stats> }> {
  const child = spawn(process.execPath, [FIXTURE, `--${mode}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CIMD_CA: ca },
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\S+)/.exec(String(chunk));
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`oauth fixture exited with ${code}`)));
  });
  return { url, child, stats: async () => (await (await fetch(new URL('/stats', url))).json()) as Stats };
}

/** Logs in with `auth`, then calls `whoami` in a fresh run on the stored tokens; returns what it said. */
async function loginAndCall(
  url: string,
  auth: McpOAuthConfig,
  store: McpTokenStore = memoryTokenStore(),
): Promise<string> {
  const authorizer = loopbackAuthorizer(browser);
  try {
    expect(await mcpLogin('notes', { url, auth }, { store, authorizer, timeoutMs: 30_000 })).toEqual({ toolCount: 1 });
  } finally {
    await authorizer.close();
  }
  const kernel = createKernel({ plugins: [mcpPlugin({ servers: { notes: { url, auth } }, tokenStore: store })] });
  try {
    const run = await kernel.createRun();
    expect(run.diagnostics).toEqual([]);
    const outcome = await run.call('mcp:notes:whoami', {});
    expect(outcome).toMatchObject({ status: 'ok' });
    return (outcome as unknown as { result: { content: Array<{ text: string }> } }).result.content[0]!.text;
  } finally {
    await kernel.close();
  }
}

const openssl = await promisify(execFile)('openssl', ['version']).then(
  () => true,
  () => false,
);
if (!openssl)
  console.warn(
    'skipping client ID metadata document tests: openssl is not installed (needed for the HTTPS document server certificate)',
  );

describe.skipIf(!openssl)('OAuth client identity: metadata document, registration, pre-registered', () => {
  const dir = mkdtempSync(join(tmpdir(), 'plugin-mcp-cimd-'));
  const children: ChildProcess[] = [];
  let documentServer: Server;
  let metadataUrl: string;
  let documentRequests = 0;
  let cimd: Awaited<ReturnType<typeof startAuthServer>>;
  let dcr: Awaited<ReturnType<typeof startAuthServer>>;

  beforeAll(async () => {
    // The document must be served over HTTPS: a self-signed certificate for 127.0.0.1, which the authorization server trusts.
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]);
    documentServer = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (req, res) => {
        documentRequests += 1;
        if (req.url !== '/tool-search/client.json') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            client_id: metadataUrl,
            client_name: 'Tool Search',
            redirect_uris: ['http://127.0.0.1/callback'],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          }),
        );
      },
    );
    await new Promise<void>((resolve) => documentServer.listen(0, '127.0.0.1', resolve));
    metadataUrl = `https://127.0.0.1:${(documentServer.address() as { port: number }).port}/tool-search/client.json`;
    [cimd, dcr] = await Promise.all([
      startAuthServer('cimd', join(dir, 'cert.pem')),
      startAuthServer('dcr', join(dir, 'cert.pem')),
    ]);
    children.push(cimd.child, dcr.child);
  });
  afterAll(async () => {
    for (const child of children) child.kill();
    await new Promise((resolve) => documentServer?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('uses the metadata document URL as client_id where the server supports it: fetched, never registered', async () => {
    const before = documentRequests;
    const store = memoryTokenStore();
    expect(await loginAndCall(cimd.url, { clientMetadataUrl: metadataUrl }, store)).toBe(metadataUrl);
    expect(await cimd.stats()).toMatchObject({ registrations: 0, metadataFetches: 1, authorizations: 1, calls: 1 });
    expect(documentRequests).toBe(before + 1);
    expect((await store.load('notes'))?.client?.client_id).toBe(metadataUrl);
  });

  it('registers dynamically with a server that does not support metadata documents, even with one configured', async () => {
    const before = documentRequests;
    const { registrations } = await dcr.stats();
    const clientId = await loginAndCall(dcr.url, { clientMetadataUrl: metadataUrl });
    expect(clientId).not.toBe(metadataUrl);
    expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await dcr.stats()).toMatchObject({ registrations: registrations + 1, metadataFetches: 0 });
    expect(documentRequests).toBe(before);
  });

  it('registers dynamically when no metadata document is configured', async () => {
    const { registrations } = await dcr.stats();
    expect(await loginAndCall(dcr.url, {})).toMatch(/^[0-9a-f-]{36}$/);
    expect((await dcr.stats()).registrations).toBe(registrations + 1);
  });

  it('uses a pre-registered client ID as it is: no registration, no document, bound to the first issuer', async () => {
    const { registrations } = await dcr.stats();
    const before = documentRequests;
    const store = memoryTokenStore();
    const warn = vi.spyOn(console, 'warn');
    try {
      expect(await loginAndCall(dcr.url, { clientId: 'tool-search-pre', clientMetadataUrl: metadataUrl }, store)).toBe(
        'tool-search-pre',
      );
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
    expect((await dcr.stats()).registrations).toBe(registrations);
    expect(documentRequests).toBe(before);
    expect((await store.load('notes'))?.client).toEqual({
      client_id: 'tool-search-pre',
      issuer: new URL(dcr.url).origin,
    });
  });

  it('refuses a redirect whose iss names another authorization server (RFC 9207 mix-up defense)', async () => {
    const forging = loopbackAuthorizer({
      open: async (url) => {
        const redirect = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
        redirect.searchParams.set('iss', 'https://attacker.example');
        await (await fetch(redirect)).text();
      },
      timeoutMs: 30_000,
    });
    const { tokens } = await cimd.stats();
    try {
      await expect(
        mcpLogin(
          'notes',
          { url: cimd.url, auth: { clientMetadataUrl: metadataUrl } },
          { store: memoryTokenStore(), authorizer: forging, timeoutMs: 30_000 },
        ),
      ).rejects.toMatchObject({
        code: 'MCP_AUTH_FAILED',
        cause: expect.objectContaining({ name: expect.stringMatching(/IssuerMismatch/) }),
      });
    } finally {
      await forging.close();
    }
    expect((await cimd.stats()).tokens).toBe(tokens);
  });
});

describe('auth.clientMetadataUrl in the options schema', () => {
  const withAuth = (auth: unknown) => ({ servers: { notes: { url: 'https://mcp.example/mcp', auth } } });
  it('takes an HTTPS URL with a path', () => {
    expect(() =>
      parseMcpOptions(withAuth({ clientMetadataUrl: 'https://app.example/oauth/client.json' })),
    ).not.toThrow();
  });
  it.each(['http://app.example/client.json', 'https://app.example/', 'app.example/client.json', 42])(
    'refuses %j with a ConfigError at its path',
    (value) => {
      expect(() => parseMcpOptions(withAuth({ clientMetadataUrl: value }))).toThrow(
        expect.objectContaining({ code: 'OPTIONS_INVALID', path: '/servers/notes/auth/clientMetadataUrl' }),
      );
    },
  );
});
