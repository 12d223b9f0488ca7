/**
 * A 2026-07-28-only server on the v2 SDK (it refuses the legacy `initialize`)
 * behind plugin-mcp, over stdio and Streamable HTTP: negotiated (`auto`, the
 * default) or pinned, it is listed and called, a list change is seen (the
 * modern `subscriptions/listen` stream), and its `input_required` elicitation
 * is answered by the plugin's own handler. A pin the server cannot meet fails
 * as a diagnostic that says so, and a v1 reference server still negotiates
 * down to 2025-11-25.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '@tool-search/kernel';
import { mcpPlugin, type McpClientHandlers, type McpServerConfig } from '../src/index.js';
import { nodeServer } from './helpers.js';

const MODERN = fileURLToPath(new URL('./fixtures/modern-server.mjs', import.meta.url));
const stdio = (protocol?: 'auto' | '2026-07-28' | '2025-11-25'): McpServerConfig => ({
  command: process.execPath,
  args: [MODERN],
  ...(protocol ? { protocol } : {}),
});

let http: ChildProcess;
let url: string;

beforeAll(async () => {
  http = spawn(process.execPath, [MODERN, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    http.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /LISTENING (\d+)/.exec(out)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}/mcp`);
    });
    http.once('exit', (code) => reject(new Error(`the modern HTTP fixture exited (${code})`)));
  });
}, 60_000);
afterAll(() => {
  http?.kill();
});

const text = (outcome: unknown): string => {
  const result = (outcome as { status: string; result?: { content?: Array<{ text?: string }> } }).result;
  return result?.content?.map((part) => part.text ?? '').join('') ?? JSON.stringify(outcome);
};

/** Polls until `check` holds (CI is loaded: no fixed sleeps, a generous deadline). */
async function eventually(check: () => Promise<boolean>, deadlineMs = 20_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each([
  ['stdio, auto', () => stdio()],
  ['stdio, pinned 2026-07-28', () => stdio('2026-07-28')],
  ['Streamable HTTP, auto', (): McpServerConfig => ({ url })],
  ['Streamable HTTP, pinned 2026-07-28', (): McpServerConfig => ({ url, protocol: '2026-07-28' })],
])('a modern-only server (%s)', (_label, config) => {
  let kernel: Kernel;
  const changed: string[] = [];
  const asked: unknown[] = [];
  const handlers: McpClientHandlers = {
    elicitInput: async (params, context) => {
      asked.push({ message: (params as { message?: string }).message, server: context.server });
      return { action: 'accept', content: { go: true } };
    },
  };

  beforeAll(() => {
    kernel = createKernel({
      plugins: [
        mcpPlugin({
          connectTimeoutMs: 20_000,
          servers: { modern: config() },
          handlers,
          onToolsChanged: (server) => changed.push(server),
        }),
      ],
    });
  });
  afterAll(() => kernel.close());

  it('is listed and called', async () => {
    const run = await kernel.createRun();
    expect(run.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
    // The HTTP fixture is shared by two suites: the first may have added `extra_<n>` tools already.
    expect(
      run.catalog
        .map((tool) => tool.name)
        .filter((name) => !name.startsWith('extra_'))
        .sort(),
    ).toEqual(['add_tool', 'confirm', 'echo']);
    expect(text(await run.call('mcp:modern:echo', { message: 'hi' }))).toBe('echo: hi');
    await run.close();
  });

  it('answers an input_required elicitation through the configured handler', async () => {
    const run = await kernel.createRun();
    expect(text(await run.call('mcp:modern:confirm', {}))).toBe('confirmed: {"go":true}');
    expect(asked).toEqual([{ message: 'Go ahead?', server: 'modern' }]);
    await run.close();
  });

  it('sees a list change and lists the new tool in the next run', async () => {
    const run = await kernel.createRun();
    const before = run.catalog.filter((tool) => tool.name.startsWith('extra_')).length;
    expect(text(await run.call('mcp:modern:add_tool', {}))).toBe('added');
    await eventually(async () => changed.includes('modern'));
    await eventually(async () => {
      const next = await kernel.createRun();
      const found = next.tool(`mcp:modern:extra_${before + 1}`) !== undefined;
      await next.close();
      return found;
    });
    await run.close();
  });
});

describe('pins a server cannot meet', () => {
  it('fails a modern-only server pinned to 2025-11-25 with a diagnostic naming the version', async () => {
    const kernel = createKernel({
      plugins: [mcpPlugin({ connectTimeoutMs: 20_000, servers: { modern: stdio('2025-11-25') } })],
    });
    try {
      const run = await kernel.createRun();
      const failure = run.diagnostics.find((d) => d.code === 'MCP_SERVER_FAILED');
      expect(failure).toMatchObject({ details: { server: 'modern', reason: 'protocol' } });
      expect(failure?.message).toMatch(/2025-11-25/);
      expect(run.catalog).toEqual([]);
    } finally {
      await kernel.close();
    }
  }, 60_000);

  it('fails a legacy (v1) server pinned to 2026-07-28, and negotiates it down under auto', async () => {
    const kernel = createKernel({
      plugins: [
        mcpPlugin({
          connectTimeoutMs: 20_000,
          servers: {
            pinned: { ...nodeServer('server-memory'), protocol: '2026-07-28' },
            auto: nodeServer('server-memory'),
          },
        }),
      ],
    });
    try {
      const run = await kernel.createRun();
      const failure = run.diagnostics.find((d) => d.code === 'MCP_SERVER_FAILED');
      expect(failure).toMatchObject({ details: { server: 'pinned', reason: 'protocol' } });
      expect(failure?.message).toMatch(/2026-07-28/);
      expect(run.catalog.some((tool) => tool.owner === 'auto')).toBe(true);
      expect(run.catalog.some((tool) => tool.owner === 'pinned')).toBe(false);
    } finally {
      await kernel.close();
    }
  }, 60_000);
});
