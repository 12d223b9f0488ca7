/**
 * Policy and `beforeToolCall` guards apply to everything the MCP server
 * routes: a denied downstream tool can be neither found nor called, and a
 * call that needs an approval nobody gave is blocked.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { elicitationApprovals, serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';
import {
  call,
  connectHttp,
  createWorkspace,
  errorCode,
  hitIds,
  NOTE_TEXT,
  text,
  type Connected,
  type Workspace,
} from './helpers.js';

describe('policy behind serve mcp', () => {
  let workspace: Workspace;
  let kernel: Kernel;
  let handle: HttpMcpHandle;
  let client: Connected;

  beforeAll(async () => {
    workspace = await createWorkspace();
    const { everything, filesystem } = workspace.servers();
    const approvals = elicitationApprovals();
    ({ kernel } = await createToolSearchKernel(
      {
        mcp: { servers: { everything: everything!, filesystem: filesystem! } },
        tools: { deny: ['mcp:everything:*'], approvals: { require: ['mcp:filesystem:write_file'] } },
        session: { logDir: join(workspace.dir, 'sessions') },
      },
      { approve: approvals.approve },
    ));
    handle = await serveHttp({ kernel, mode: 'tools', refreshIntervalMs: 0, approvals });
    client = await connectHttp(handle.url);
  });
  afterAll(async () => {
    await client?.close();
    await handle?.close();
    await kernel?.close();
    await workspace?.remove();
  });

  it('makes denied tools unfindable', async () => {
    const hits = hitIds(await call(client.client, 'tool_search', { query: 'echo back a message', limit: 20 }));
    expect(hits.filter((id) => id.startsWith('mcp:everything:'))).toEqual([]);
  });

  it('makes denied tools uncallable', async () => {
    const result = await call(client.client, 'tool_call', {
      id: 'mcp:everything:echo',
      args: { message: 'should not arrive' },
    });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe('UNKNOWN_TOOL');
  });

  it('cannot describe a denied tool', async () => {
    const result = await call(client.client, 'tool_describe', { id: 'mcp:everything:echo' });
    expect(errorCode(result)).toBe('UNKNOWN_TOOL');
  });

  it('leaves allowed servers working', async () => {
    const result = await call(client.client, 'tool_call', {
      id: 'mcp:filesystem:read_text_file',
      args: { path: workspace.note },
    });
    expect(text(result)).toContain(NOTE_TEXT);
  });

  const writeArgs = (file: string) => ({
    id: 'mcp:filesystem:write_file',
    args: { path: join(workspace.files, file), content: 'approved content' },
  });

  it('asks the client (elicitation) and runs the call its user approved', async () => {
    const asked: string[] = [];
    const approving = await connectHttp(handle.url, {
      elicit: (params) => (asked.push(params.message), { action: 'accept', content: { approve: true } }),
    });
    try {
      const result = await call(approving.client, 'tool_call', writeArgs('approved.txt'));
      expect(result.isError).toBeFalsy();
      expect(asked.join()).toContain('mcp:filesystem:write_file');
      expect(existsSync(join(workspace.files, 'approved.txt'))).toBe(true);
    } finally {
      await approving.close();
    }
  });

  it('blocks the call when the user declines', async () => {
    const declining = await connectHttp(handle.url, { elicit: () => ({ action: 'decline' }) });
    try {
      const result = await call(declining.client, 'tool_call', writeArgs('declined.txt'));
      expect(errorCode(result)).toBe('TOOL_CALL_BLOCKED');
      expect(existsSync(join(workspace.files, 'declined.txt'))).toBe(false);
    } finally {
      await declining.close();
    }
  });

  it('blocks a call that needs an approval when the client cannot be asked', async () => {
    const result = await call(client.client, 'tool_call', {
      id: 'mcp:filesystem:write_file',
      args: { path: `${workspace.files}/blocked.txt`, content: 'must not be written' },
    });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe('TOOL_CALL_BLOCKED');
    expect(existsSync(`${workspace.files}/blocked.txt`)).toBe(false);
  });

  it('records the calls in the session log (runs on)', async () => {
    await client.close();
    await handle.close(); // closing the MCP session ends its run, which flushes its log
    const dir = join(workspace.dir, 'sessions');
    // The server process writes its log as it exits: on a loaded machine that can land just after close() returns.
    await vi.waitFor(
      async () => {
        const entries = (await Promise.all((await readdir(dir)).map((file) => readFile(join(dir, file), 'utf8'))))
          .flatMap((body) => body.split('\n').filter(Boolean))
          .map((line) => JSON.parse(line) as { type: string; toolId?: string; status?: string });
        const calls = entries
          .filter((entry) => entry.type === 'tool-call')
          .map(({ toolId, status }) => ({ toolId, status }));
        expect(calls).toContainEqual({ toolId: 'mcp:filesystem:read_text_file', status: 'ok' });
        expect(calls).toContainEqual({ toolId: 'mcp:filesystem:write_file', status: 'blocked' });
      },
      { timeout: 10_000, interval: 200 },
    );
  });
});
