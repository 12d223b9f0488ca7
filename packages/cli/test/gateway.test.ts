import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { folder, smallCatalog } from './helpers.js';

interface Started {
  url: string;
  stderr: () => string;
  stop: () => Promise<number>;
}

const running: Started[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop()));
});

/** Starts `tool-search gateway` in-process and resolves once it printed its URL. */
async function startGateway(argv: string[], cwd: string): Promise<Started> {
  const controller = new AbortController();
  let stdout = '';
  let stderr = '';
  let printed: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (printed = resolve));
  const exit = runCli(['gateway', ...argv], {
    stdout: {
      write: (text: string) => {
        stdout += text;
        const match = /http:\/\/\S+\/v1/.exec(stdout);
        if (match) printed(match[0]);
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

const script = 'tool search qa check target=read args={"path":"notes.txt"}';

describe('gateway', () => {
  it('answers a chat completion through the mock provider (tools mode) and logs the session', async () => {
    const cwd = smallCatalog(3, 'gateway: { sessions: { dir: "sessions" } }');
    const gateway = await startGateway(['--provider-mode', 'mock-openai', '--port', '0', '--mode', 'tools'], cwd);
    const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'mock-model',
      messages: [{ role: 'user', content: script }],
    });
    expect(completion.choices[0]?.message.content).toContain('FAKE_TOOL_OK');
    expect((completion as unknown as { tool_search: { mode: string } }).tool_search.mode).toBe('tools');
    expect(await gateway.stop()).toBe(0);
    expect(readdirSync(join(cwd, 'sessions')).some((file) => file.endsWith('.jsonl'))).toBe(true);
  });

  it('serves the approval queue over HTTP with --approvals http', async () => {
    const gateway = await startGateway(
      ['--provider-mode', 'mock-openai', '--mode', 'direct', '--approvals', 'http'],
      smallCatalog(1, 'tools: { approvals: { require: ["read"] } }'),
    );
    const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 });
    const answer = client.chat.completions.create({
      model: 'mock-model',
      messages: [{ role: 'user', content: script }],
    });
    let pending: { id: string; request: { toolId: string } }[] = [];
    while (pending.length === 0) {
      pending = ((await (await fetch(`${gateway.url}/approvals`)).json()) as { approvals: typeof pending }).approvals;
      if (pending.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(pending[0]?.request.toolId).toBe('core:core:read');
    const bad = await fetch(`${gateway.url}/approvals/${pending[0]!.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'maybe' }),
    });
    expect(bad.status).toBe(400);
    const ok = await fetch(`${gateway.url}/approvals/${pending[0]!.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'allow' }),
    });
    expect(await ok.json()).toEqual({ id: pending[0]!.id, decision: 'allow' });
    expect((await answer).choices[0]?.message.content).toContain('FAKE_TOOL_OK');
    expect(
      (
        await fetch(`${gateway.url}/approvals/${pending[0]!.id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"decision":"allow"}',
        })
      ).status,
    ).toBe(404);
  });

  it('answers GET /v1/health with its replica id and the state store (in-process here)', async () => {
    const cwd = smallCatalog(1, 'state: { replicaId: "gw-test" }');
    const gateway = await startGateway(['--provider-mode', 'mock-openai'], cwd);
    const health = await fetch(`${gateway.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ replica: 'gw-test', state: { kind: 'memory', ok: true } });
    // A POST is not a health check (a bodiless one without JSON content type is 415 before routing).
    const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };
    expect((await fetch(`${gateway.url}/health`, post)).status).toBe(404);
    expect((await fetch(`${gateway.url}/health`, { method: 'POST' })).status).toBe(415);
  });

  it('exits 1 without a provider in the config (no key, no mock)', async () => {
    let stderr = '';
    const code = await runCli(['gateway'], {
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
      cwd: smallCatalog(1),
      env: {},
    });
    expect(code).toBe(1);
    expect(stderr).toContain('/provider');
  });

  it('serves every front end over the in-process Anthropic mock with --provider-mode mock-anthropic', async () => {
    const gateway = await startGateway(['--provider-mode', 'mock-anthropic', '--mode', 'tools'], smallCatalog(3));
    expect(gateway.stderr()).toContain('mock-anthropic');
    const anthropic = new Anthropic({ baseURL: gateway.url.replace(/\/v1$/, ''), apiKey: 'unused', maxRetries: 0 });
    const message = await anthropic.messages.create({
      model: 'mock-claude',
      max_tokens: 256,
      messages: [{ role: 'user', content: script }],
    });
    expect(message.content[0]?.type === 'text' && message.content[0].text).toContain('FAKE_TOOL_OK');
    const openai = new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 });
    const response = await openai.responses.create({ model: 'mock-claude', input: script });
    expect(response.output_text).toContain('FAKE_TOOL_OK');
  });

  it('exits 2 for an unknown provider mode', async () => {
    const code = await runCli(['gateway', '--provider-mode', 'real'], {
      stdout: { write: () => true },
      stderr: { write: () => true },
      cwd: smallCatalog(1),
    });
    expect(code).toBe(2);
  });

  it.each(['mock-openai', 'mock-anthropic'])(
    'lists image and sends images to the %s provider the gateway talks to (agents.defaults.imageModel)',
    async (mode) => {
      // A 4x3 GIF header: enough for the mock to read the size back.
      const cwd = folder({
        'tool-search.json':
          '{ plugins: { core: {} }, agents: { defaults: { imageModel: "mock-vision" } }, tools: { toolSearch: false } }',
      });
      // In the default workspace, a folder of its own beside the config (`image` reads only the workspace).
      mkdirSync(join(cwd, 'workspace'));
      writeFileSync(
        join(cwd, 'workspace', 'pic.gif'),
        Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 4, 0, 3, 0, 0, 0, 0, 0x3b]),
      );
      const gateway = await startGateway(['--provider-mode', mode, '--port', '0', '--approvals', 'deny'], cwd);
      const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 });
      const steps = JSON.stringify([{ tool: 'image', args: { image: 'pic.gif', prompt: 'What size?' } }]);
      const completion = await client.chat.completions.create({
        model: 'mock-model',
        messages: [{ role: 'user', content: `tool search qa steps ${steps}` }],
      });
      expect(completion.choices[0]?.message.content).toContain(
        'Mock vision: image 1: image/gif 14 bytes, 4x3 pixels. Prompt: What size?',
      );
    },
  );
});
