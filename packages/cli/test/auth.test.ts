/**
 * `tool-search auth hash-key`, and the config's `auth.keys` reaching the
 * gateway (in-process CLI, official OpenAI client over real HTTP).
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import OpenAI from 'openai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { cli, smallCatalog } from './helpers.js';

const KEY = 'cli-key-0123456789abcdef';
const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

describe('tool-search auth hash-key', () => {
  it('prints the sha256 hash of a given key', async () => {
    const { code, stdout } = await cli(['auth', 'hash-key', KEY]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(sha(KEY));
  });

  it('reads the key from stdin with "-"', async () => {
    const { code, stdout } = await cli(['auth', 'hash-key', '-'], undefined, { stdin: Readable.from([`${KEY}\n`]) });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(sha(KEY));
  });

  it('makes a new random key and its hash without an argument', async () => {
    const { code, stdout } = await cli(['auth', 'hash-key']);
    expect(code).toBe(0);
    const [, key] = /^key: +(\S+)$/m.exec(stdout)!;
    const [, hash] = /^hash: +(\S+)$/m.exec(stdout)!;
    expect(hash).toBe(sha(key!));
  });

  it('refuses a short key (exit 1, AUTH_KEY_INVALID)', async () => {
    const { code, stderr } = await cli(['auth', 'hash-key', 'short']);
    expect(code).toBe(1);
    expect(stderr).toContain('AUTH_KEY_INVALID');
  });
});

describe('gateway with auth.keys in the config', () => {
  it('asks every request for a key and runs the agent the key allows', async () => {
    const controller = new AbortController();
    let stdout = '';
    let stderr = '';
    const config = `auth: { keys: [{ hash: "${sha(KEY)}", agents: ["main"] }] }, agents: { list: [{ id: "main", default: true }, { id: "other" }] }`;
    const exit = runCli(['gateway', '--provider-mode', 'mock-openai', '--mode', 'direct', '--approvals', 'deny'], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      cwd: smallCatalog(3, config),
      signal: controller.signal,
    });
    try {
      while (!/http:\/\/\S+\/v1/.test(stdout)) {
        if (await Promise.race([exit.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 20))]))
          throw new Error(`exited: ${stderr}`);
      }
      const url = /http:\/\/\S+\/v1/.exec(stdout)![0];
      const ask = (client: OpenAI) =>
        client.chat.completions.create({
          model: 'mock-model',
          messages: [{ role: 'user', content: 'tool search qa check target=read args={"path":"x"}' }],
        });
      await expect(ask(new OpenAI({ baseURL: url, apiKey: 'unused', maxRetries: 0 }))).rejects.toMatchObject({
        status: 401,
      });
      await expect(
        ask(new OpenAI({ baseURL: url, apiKey: KEY, maxRetries: 0, defaultHeaders: { 'x-agent-id': 'other' } })),
      ).rejects.toMatchObject({ status: 403 });
      expect(
        (await ask(new OpenAI({ baseURL: url, apiKey: KEY, maxRetries: 0 }))).choices[0]?.message.content,
      ).toBeTruthy();
    } finally {
      controller.abort();
      expect(await exit).toBe(0);
    }
  });

  it("lets a key see and answer only its own agents' approvals (--approvals http)", async () => {
    const OTHER = 'other-key-0123456789abcdef';
    const controller = new AbortController();
    let stdout = '';
    let stderr = '';
    const config =
      `auth: { keys: [{ hash: "${sha(KEY)}", agents: ["main"] }, { hash: "${sha(OTHER)}", agents: ["other"] }] }, ` +
      'agents: { list: [{ id: "main", default: true }, { id: "other" }] }, tools: { approvals: { require: ["read"] } }';
    const exit = runCli(['gateway', '--provider-mode', 'mock-openai', '--mode', 'direct', '--approvals', 'http'], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      cwd: smallCatalog(1, config),
      signal: controller.signal,
    });
    try {
      while (!/http:\/\/\S+\/v1/.test(stdout)) {
        if (await Promise.race([exit.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 20))]))
          throw new Error(`exited: ${stderr}`);
      }
      const url = /http:\/\/\S+\/v1/.exec(stdout)![0];
      const as = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
      const answer = new OpenAI({ baseURL: url, apiKey: KEY, maxRetries: 0 }).chat.completions.create({
        model: 'mock-model',
        messages: [{ role: 'user', content: 'tool search qa check target=read args={"path":"x"}' }],
      });
      let pending: { id: string; request: { agentId?: string } }[] = [];
      await expect
        .poll(
          async () =>
            (pending = (
              (await (await fetch(`${url}/approvals`, { headers: as(KEY) })).json()) as { approvals: typeof pending }
            ).approvals).length,
          { timeout: 15_000, interval: 50 },
        )
        .toBe(1);
      expect(pending[0]!.request.agentId).toBe('main');
      expect(await (await fetch(`${url}/approvals`, { headers: as(OTHER) })).json()).toEqual({ approvals: [] });
      const stolen = await fetch(`${url}/approvals/${pending[0]!.id}`, {
        method: 'POST',
        headers: as(OTHER),
        body: JSON.stringify({ decision: 'allow' }),
      });
      expect(stolen.status).toBe(404);
      expect((await fetch(`${url}/approvals/${pending[0]!.id}`, { headers: as(OTHER) })).status).toBe(404);
      expect((await fetch(`${url}/approvals`)).status).toBe(401);
      const approved = await fetch(`${url}/approvals/${pending[0]!.id}`, {
        method: 'POST',
        headers: as(KEY),
        body: JSON.stringify({ decision: 'allow' }),
      });
      expect(approved.status).toBe(200);
      expect((await answer).choices[0]?.message.content).toContain('FAKE_TOOL_OK');
    } finally {
      controller.abort();
      expect(await exit).toBe(0);
    }
  });

  it('refuses a non-loopback --host without keys (exit 1, names auth.keys)', async () => {
    const { code, stderr } = await cli(
      ['gateway', '--provider-mode', 'mock-openai', '--host', '0.0.0.0', '--approvals', 'deny'],
      smallCatalog(1),
    );
    expect(code).toBe(1);
    expect(stderr).toContain('auth.keys');
  });

  it('refuses an auth.keys env entry whose variable is unset (exit 1, AUTH_KEY_INVALID)', async () => {
    const { code, stderr } = await cli(
      ['gateway', '--provider-mode', 'mock-openai', '--approvals', 'deny'],
      smallCatalog(1, 'auth: { keys: [{ env: "TS_TEST_UNSET_KEY", agents: ["*"] }] }'),
      { env: {} },
    );
    expect(code).toBe(1);
    expect(stderr).toContain('AUTH_KEY_INVALID');
  });
});

describe('serve mcp --http with auth.keys in the config', () => {
  it('refuses clients without the key and serves the one that has it', async () => {
    const controller = new AbortController();
    let stderr = '';
    const config = `auth: { keys: [{ env: "TS_TEST_MCP_KEY", agents: ["*"] }] }`;
    const exit = runCli(['serve', 'mcp', '--http', '0', '--refresh', '0'], {
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
      cwd: smallCatalog(3, config),
      signal: controller.signal,
      env: { TS_TEST_MCP_KEY: KEY },
    });
    try {
      while (!/MCP server on (http:\/\/\S+\/mcp)/.test(stderr)) {
        if (await Promise.race([exit.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 20))]))
          throw new Error(`exited: ${stderr}`);
      }
      expect(stderr).toContain('API key required');
      const url = new URL(/MCP server on (http:\/\/\S+\/mcp)/.exec(stderr)![1]!);
      const connect = async (headers: Record<string, string>) => {
        const client = new Client({ name: 'cli-auth-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
        return client;
      };
      await expect(connect({})).rejects.toMatchObject({ code: 401 });
      await expect(connect({ authorization: 'Bearer wrong-key-0123456789abcdef' })).rejects.toMatchObject({
        code: 401,
      });
      const client = await connect({ authorization: `Bearer ${KEY}` });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('tool_search');
      await client.close();
    } finally {
      controller.abort();
      expect(await exit).toBe(0);
    }
  });

  it('refuses a non-loopback --host without keys (exit 1, names auth.keys)', async () => {
    const { code, stderr } = await cli(['serve', 'mcp', '--http', '0', '--host', '0.0.0.0'], smallCatalog(1), {
      env: {},
    });
    expect(code).toBe(1);
    expect(stderr).toContain('auth.keys');
  });
});
