/**
 * The CLI process ends cleanly: when its MCP client closes stdin (stdio), and
 * on SIGTERM (HTTP), taking its downstream server processes with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  CLI_BIN,
  CLI_BUILT,
  CLI_MISSING,
  connectHttp,
  createWorkspace,
  text,
  type Workspace,
} from './helpers.js';

if (!CLI_BUILT) console.warn(`skipping the serve mcp lifecycle suites: ${CLI_MISSING}`);

describe.skipIf(!CLI_BUILT)('serve mcp process lifecycle', { timeout: 90_000 }, () => {
  let workspace: Workspace;
  let config: string;

  beforeAll(async () => {
    workspace = await createWorkspace();
    const { everything, filesystem } = workspace.servers();
    config = await workspace.writeConfig({ mcp: { servers: { everything: everything!, filesystem: filesystem! } } });
  });
  afterAll(() => workspace?.remove());

  it('exits 0 when the client closes stdin, and ends its downstream servers', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'serve', 'mcp', '--config', config], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stderr = collect(child);
    await stderr.until(/MCP server on stdio/);
    expect(await processesMentioning(workspace.files)).not.toEqual([]);
    child.stdin?.end();
    expect(await exited(child)).toBe(0);
    expect(await processesMentioning(workspace.files)).toEqual([]);
  });

  it('serves Streamable HTTP with --http, prints the URL on stderr, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'serve', 'mcp', '--config', config, '--http', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = collect(child, 'stdout');
    const url = (await collect(child).until(/MCP server on (http:\/\/\S+\/mcp)/))[1]!;
    const client = await connectHttp(url);
    try {
      const result = await call(client.client, 'tool_call', {
        id: 'mcp:everything:echo',
        args: { message: 'over the cli' },
      });
      expect(text(result)).toContain('over the cli');
    } finally {
      await client.close();
    }
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(stdout.text()).toBe('');
    expect(await processesMentioning(workspace.files)).toEqual([]);
  });
});

describe.skipIf(!CLI_BUILT)('serve mcp usage errors', { timeout: 90_000 }, () => {
  it('exits 2 on an unknown --mode', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'serve', 'mcp', '--mode', 'everything'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    expect(await exited(child)).toBe(2);
  });

  it('refuses a non-loopback --host without a token: exit 1, OPTIONS_INVALID', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'serve', 'mcp', '--http', '0', '--host', '0.0.0.0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TOOL_SEARCH_MCP_TOKEN: '' },
    });
    const stderr = collect(child);
    expect(await exited(child)).toBe(1);
    expect(stderr.text()).toContain('OPTIONS_INVALID');
  });
});

function collect(child: ChildProcess, stream: 'stdout' | 'stderr' = 'stderr') {
  let output = '';
  const waiters: (() => void)[] = [];
  child[stream]?.on('data', (chunk: Buffer) => {
    output += String(chunk);
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    text: () => output,
    async until(pattern: RegExp): Promise<RegExpExecArray> {
      for (;;) {
        const match = pattern.exec(output);
        if (match) return match;
        if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${output}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Pids of live processes whose command line mentions `text` (Linux /proc; elsewhere none are found). */
async function processesMentioning(text: string): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const found: number[] = [];
  for (const entry of entries.filter((name) => /^\d+$/.test(name))) {
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const state = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // A zombie waits only for its parent to reap it: it no longer runs.
    if (cmdline.includes(text) && !/^\d+ \(.*\) Z/.test(state)) found.push(Number(entry));
  }
  return found;
}
