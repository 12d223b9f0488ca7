/**
 * runGateway and serveMcp: the front ends the preset composes, called the way the CLI's `gateway` and `serve mcp`
 * call them (argument parsing there, one call here). Real HTTP, a real mock provider, a real SIGUSR1 (vitest forks a
 * process per worker, so the signal reaches this one), the official MCP SDK client.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { runGateway, serveMcp, type ListeningGateway } from '@tool-search/preset';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const catalog = { plugins: { 'fake-catalog': { tools: 5, core: false } } };
let mock: Awaited<ReturnType<typeof startMockOpenAI>>;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(async () => {
  await mock?.close();
});

/** Polls with a generous deadline (a loaded machine restarts slowly): no fixed sleeps. */
async function eventually(check: () => boolean | Promise<boolean>, what: string, log: () => string): Promise<void> {
  const until = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; log:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function modeOf(url: string): Promise<string> {
  const client = new OpenAI({ baseURL: url, apiKey: 'unused', maxRetries: 0 });
  const completion = await client.chat.completions.create({
    model: 'mock-model',
    messages: [{ role: 'user', content: 'hello' }],
  });
  return (completion as unknown as { tool_search: { mode: string } }).tool_search.mode;
}

describe('runGateway', () => {
  it('serves until stopped and restarts in-process on SIGUSR1: same port, the config read again; a config that does not load is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-gateway-'));
    const provider = { baseURL: mock.url, apiKey: 'mock', model: 'mock-model' };
    let next: () => object = () => ({ ...catalog, provider, tools: { toolSearch: false } });
    const listening: ListeningGateway[] = [];
    const lines: string[] = [];
    const log = () => lines.join('\n');
    const controller = new AbortController();
    const done = runGateway({
      load: async () => ({ config: next(), path: join(dir, 'tool-search.json') }),
      port: 0,
      approvals: 'queue',
      signal: controller.signal,
      log: (line) => void lines.push(line),
      onListening: (gateway) => void listening.push(gateway),
    });
    let stopped = false;
    void done.finally(() => (stopped = true));
    await eventually(() => listening.length === 1 || stopped, 'the gateway to listen', log);
    const first = listening[0]!;
    expect(first.mode).toBe('direct');
    expect(first.front.approvalQueue).toBeDefined();
    expect(await modeOf(first.url)).toBe('direct');
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    expect((await (await fetch(`${first.url}/approvals`)).json()) as unknown).toEqual({ approvals: [] });

    // A restart whose config does not load keeps the running gateway serving.
    next = () => {
      throw new Error('broken file');
    };
    process.kill(process.pid, 'SIGUSR1');
    await eventually(() => lines.some((line) => line.includes('restart refused')), 'the refused restart', log);
    expect(lines.find((line) => line.includes('restart refused'))).toContain('broken file');
    expect(listening).toHaveLength(1);
    expect(await modeOf(first.url)).toBe('direct');

    next = () => ({ ...catalog, provider, tools: { toolSearch: { mode: 'directory' } } });
    process.kill(process.pid, 'SIGUSR1');
    await eventually(() => listening.length === 2 || stopped, 'the restarted gateway', log);
    expect(lines).toContain('gateway: restarting in-process (SIGUSR1: SIGUSR1)');
    const second = listening[1]!;
    expect(second.port).toBe(first.port);
    expect(second.mode).toBe('directory');
    // The client may first reuse a keep-alive socket of the drained server: it is closed, so ask again.
    await eventually(
      async () => (await modeOf(second.url).catch(() => '')) === 'directory',
      'the new config to serve',
      log,
    );

    controller.abort();
    await done;
    await expect(fetch(`${second.url}/health`)).rejects.toThrow();
  }, 120_000);

  it('rejects, with nothing left listening, when the config names a bad provider', async () => {
    const listening: ListeningGateway[] = [];
    await expect(
      runGateway({
        load: async () => ({ config: { ...catalog, provider: { kind: 'no-such-kind' } } as never }),
        port: 0,
        onListening: (g) => void listening.push(g),
      }),
    ).rejects.toThrow();
    expect(listening).toEqual([]);
  });
});

describe('serveMcp', () => {
  it('serves the search surface of the party’s mode over Streamable HTTP until stopped', async () => {
    const lines: string[] = [];
    const controller = new AbortController();
    const done = serveMcp({
      config: { ...catalog, tools: { toolSearch: { mode: 'directory' } } },
      http: 0,
      token: 'secret-token',
      signal: controller.signal,
      log: (line) => void lines.push(line),
    });
    let stopped = false;
    void done.finally(() => (stopped = true));
    const serving = () => lines.find((line) => line.includes('(Streamable HTTP)'));
    await eventually(
      () => serving() !== undefined || stopped,
      'the MCP server to listen',
      () => lines.join('\n'),
    );
    expect(serving()).toContain('mode directory, API key required');
    const url = /MCP server on (\S+)/.exec(serving()!)![1]!;
    expect(
      (await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(401);
    const client = new Client({ name: 'front-ends-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: 'Bearer secret-token' } },
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('tool_search');
      expect(names.some((name) => name.startsWith('fake_'))).toBe(false);
    } finally {
      await client.close();
    }
    controller.abort();
    await done;
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
  }, 120_000);
});
