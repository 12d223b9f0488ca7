import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from './helpers.js';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture();
}, 120_000);
afterAll(async () => {
  await fixture?.close();
});

async function api<T = Record<string, unknown>>(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, fixture.server.url), init);
  return { status: response.status, body: (await response.json()) as T };
}

describe('the inspect API', () => {
  it('lists every tool with source, server and policy status, the GitHub MCP server among the demo tools', async () => {
    const { body } = await api<{
      tools: { id: string; source: string; server?: string; status: string; deniedBy?: { step: string } }[];
    }>('/api/catalog');
    const byId = new Map(body.tools.map((tool) => [tool.id, tool]));
    expect(byId.get('mcp:github:create_issue')).toMatchObject({ source: 'mcp', server: 'github', status: 'allowed' });
    expect(byId.get('core:core:read')).toMatchObject({ source: 'core', status: 'allowed' });
    expect(byId.get('mcp:github:delete_repository')).toMatchObject({
      status: 'denied',
      deniedBy: { step: expect.any(String) },
    });
  });

  it('shows another catalog for another agent', async () => {
    const main = await api<{ tools: { id: string; status: string }[] }>('/api/catalog?agent=main');
    const support = await api<{ tools: { id: string; status: string }[] }>('/api/catalog?agent=support');
    const allowed = (tools: { id: string; status: string }[]) =>
      tools.filter((tool) => tool.status === 'allowed').map((tool) => tool.id);
    expect(allowed(main.body.tools)).toContain('core:core:exec');
    expect(allowed(support.body.tools)).not.toContain('core:core:exec');
    expect(allowed(support.body.tools)).not.toContain('mcp:github:create_pull_request');
    expect(allowed(support.body.tools)).toContain('mcp:github:create_issue');
  });

  it('explains a denied tool with the step that dropped it', async () => {
    const { body } = await api<{
      explain: { inCatalog: boolean; steps: { kept: boolean; rule?: string }[] };
      tool: { inputSchema: unknown };
    }>('/api/tool?id=mcp:github:delete_repository');
    expect(body.explain.inCatalog).toBe(false);
    expect(body.explain.steps.some((step) => !step.kept && step.rule?.includes('delete_repository'))).toBe(true);
    expect(body.tool.inputSchema).toMatchObject({ required: ['repo'] });
  });

  it('ranks create_issue first for "create a GitHub issue", with the score parts that ranked it', async () => {
    const { body } = await api<{ result: { hits: { id: string }[] }; parts: { field: string; words: string[] }[][] }>(
      `/api/search?q=${encodeURIComponent('create a GitHub issue')}`,
    );
    expect(body.result.hits[0]?.id).toBe('mcp:github:create_issue');
    expect(body.parts[0]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'name', words: expect.arrayContaining(['create', 'issue']) }),
      ]),
    );
  });

  it('says why nothing matched well', async () => {
    const { body } = await api<{ result: { weak?: boolean }; misses: string[] }>('/api/search?q=zzqx');
    expect(body.misses.length).toBeGreaterThan(0);
  });

  it('compares the modes (native too: the preset has @tool-search/mode-native) with bytes and tokens', async () => {
    const { body } = await api<{
      modes: { mode: string; bytes: { total: number }; tokens: { total: number } | null; tools: string[] }[];
    }>('/api/exposure');
    expect(body.modes.map((mode) => mode.mode)).toEqual(['direct', 'code', 'tools', 'directory', 'native']);
    expect(body.modes[4]!.tools).toEqual(expect.arrayContaining(['tool_search', 'create_issue']));
    const direct = body.modes[0]!;
    const tools = body.modes[2]!;
    expect(direct.tools).toContain('create_issue');
    expect(tools.bytes.total).toBeLessThan(direct.bytes.total);
    expect(tools.tokens?.total).toBeGreaterThan(0);
  });

  it('reports the MCP server live, with its negotiated protocol version', async () => {
    const { body } = await api<{
      servers: { name: string; state: string; protocolVersion?: string; toolCount?: number }[];
    }>('/api/live');
    expect(body.servers).toEqual([
      expect.objectContaining({
        name: 'github',
        state: 'connected',
        protocolVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        toolCount: 9,
      }),
    ]);
  });

  it('answers bad input with a typed error and keeps serving', async () => {
    expect(await api('/api/search')).toMatchObject({ status: 400, body: { error: { code: 'INSPECT_INPUT_INVALID' } } });
    expect(await api('/api/search?q=x&limit=-1')).toMatchObject({
      status: 400,
      body: { error: { code: 'INSPECT_INPUT_INVALID' } },
    });
    expect(await api('/api/tool?id=no_such_tool')).toMatchObject({
      status: 404,
      body: { error: { code: 'INSPECT_NOT_FOUND' } },
    });
    expect(await api('/api/nope')).toMatchObject({ status: 404, body: { error: { code: 'INSPECT_NOT_FOUND' } } });
    expect((await api('/api/catalog')).status).toBe(200);
  });

  it('reads no file outside the session folder or the assets, whatever the path says', async () => {
    for (const id of ['../tool-search', '..%2Ftool-search', '/etc/passwd', 'a/../../b']) {
      expect((await api(`/api/session?id=${encodeURIComponent(id)}`)).status).toBe(404);
    }
    for (const path of ['/..%2f..%2fpackage.json', '/%2e%2e/src/server.ts', '/../package.json']) {
      const response = await fetch(new URL(path, fixture.server.url));
      expect(response.status).toBe(404);
    }
  });

  it('refuses a request whose Host is not loopback (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL('/api/meta', fixture.server.url);
      request(
        { host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'evil.example:80' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(status).toBe(403); // AUTH_NOT_LOOPBACK (browser-guard.test.ts checks the code)
  });
});
