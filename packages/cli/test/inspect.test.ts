import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { cli, smallCatalog } from './helpers.js';

interface Started {
  url: string;
  stderr: () => string;
  stop: () => Promise<number>;
}

const running: Started[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((inspect) => inspect.stop()));
});

/** Starts `tool-search inspect` in-process; resolves with the URL it printed as its first stdout line. */
async function startInspect(argv: string[], cwd: string): Promise<Started> {
  const controller = new AbortController();
  let stdout = '';
  let stderr = '';
  let printed: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (printed = resolve));
  const exit = runCli(['inspect', ...argv], {
    stdout: {
      write: (text: string) => {
        stdout += text;
        if (stdout.includes('\n')) printed(stdout.split('\n')[0]!);
      },
    },
    stderr: { write: (text: string) => (stderr += text) },
    cwd,
    signal: controller.signal,
  });
  const first = await Promise.race([url, exit.then((code) => `exited ${code}: ${stderr}`)]);
  if (!first.startsWith('http')) throw new Error(first);
  const started = { url: first, stderr: () => stderr, stop: () => (controller.abort(), exit) };
  running.push(started);
  return started;
}

const policy =
  'tools: { deny: ["exec"] }, agents: { list: [{ id: "main" }, { id: "reader", tools: { allow: ["read"] } }] }';

describe('tool-search inspect', () => {
  it('prints the page URL first, on loopback, and serves the page and the catalog the CLI sees', async () => {
    const cwd = smallCatalog(3, policy);
    const inspect = await startInspect(['--port', '0', '--agent', 'reader'], cwd);
    expect(inspect.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?agent=reader$/);
    const page = await fetch(inspect.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app">');
    const listed = JSON.parse((await cli(['tools', 'list', '--json'], cwd)).stdout) as { tools: { id: string }[] };
    const catalog = (await (await fetch(new URL('/api/catalog', inspect.url))).json()) as {
      tools: { id: string; status: string }[];
    };
    expect(
      catalog.tools
        .filter((tool) => tool.status === 'allowed')
        .map((tool) => tool.id)
        .sort(),
    ).toEqual(listed.tools.map((tool) => tool.id).sort());
    expect(catalog.tools.find((tool) => tool.id === 'core:core:exec')?.status).toBe('denied');
    const reader = (await (await fetch(new URL('/api/catalog?agent=reader', inspect.url))).json()) as {
      tools: { id: string; status: string }[];
    };
    expect(reader.tools.filter((tool) => tool.status === 'allowed').map((tool) => tool.id)).toEqual(['core:core:read']);
    expect(await inspect.stop()).toBe(0);
  });

  it('refuses to listen beyond loopback without an API key (INSPECT_AUTH_REQUIRED, exit 1)', async () => {
    const result = await cli(['inspect', '--host', '0.0.0.0'], smallCatalog(1));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error INSPECT_AUTH_REQUIRED');
  });

  it('bound beyond loopback, asks for gateway.auth.token: Bearer, or once as ?key= which sets a cookie', async () => {
    const inspect = await startInspect(
      ['--host', '0.0.0.0'],
      smallCatalog(1, 'gateway: { auth: { token: "s3cret-key" } }'),
    );
    const base = inspect.url.replace('0.0.0.0', '127.0.0.1');
    const denied = await fetch(new URL('/api/meta', base));
    expect(denied.status).toBe(401);
    expect(((await denied.json()) as { error: { code: string } }).error.code).toBe('INSPECT_UNAUTHORIZED');
    expect((await fetch(new URL('/api/meta', base), { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(new URL('/api/meta', base), { headers: { authorization: 'Bearer s3cret-key' } })).status).toBe(
      200,
    );
    const login = await fetch(new URL('/?key=s3cret-key&view=search', base), { redirect: 'manual' });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/?view=search');
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    expect(login.headers.get('set-cookie')).toContain('HttpOnly');
    expect((await fetch(new URL('/api/catalog', base), { headers: { cookie } })).status).toBe(200);
    expect((await fetch(new URL('/?key=wrong', base), { redirect: 'manual' })).status).toBe(401);
  });

  it('rejects a bad port as usage (exit 2)', async () => {
    expect((await cli(['inspect', '--port', 'x'], smallCatalog(1))).code).toBe(2);
  });
});
