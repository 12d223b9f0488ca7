/**
 * What `tools/list` and `instructions` hold in each exposure mode: directory
 * (in-process over HTTP) and code (the built CLI over stdio, `--mode code`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { createToolSearchMcpServer, serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';
import {
  call,
  CLI_BUILT,
  CLI_MISSING,
  connectCli,
  connectHttp,
  createWorkspace,
  errorCode,
  text,
  type Connected,
  type Workspace,
} from './helpers.js';

if (!CLI_BUILT) console.warn(`skipping the code-mode suite: ${CLI_MISSING}`);

describe('directory mode', () => {
  let workspace: Workspace;
  let kernel: Kernel;
  let handle: HttpMcpHandle;
  let client: Connected;

  beforeAll(async () => {
    workspace = await createWorkspace();
    const { everything, filesystem } = workspace.servers();
    ({ kernel } = await createToolSearchKernel({
      mcp: { servers: { everything: everything!, filesystem: filesystem! } },
      tools: { toolSearch: { mode: 'directory', visible: ['mcp:filesystem:read_text_file'] } },
    }));
    handle = await serveHttp({ kernel, mode: 'directory', refreshIntervalMs: 0 });
    client = await connectHttp(handle.url);
  });
  afterAll(async () => {
    await client?.close();
    await handle?.close();
    await kernel?.close();
    await workspace?.remove();
  });

  it('lists the control tools and the visible tools only', async () => {
    const { tools } = await client.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'read_text_file',
      'tool_call',
      'tool_describe',
      'tool_search',
    ]);
  });

  it("keeps a visible tool's title and annotations", async () => {
    const { tools } = await client.client.listTools();
    expect(tools.find((tool) => tool.name === 'read_text_file')).toMatchObject({
      title: 'Read Text File',
      annotations: { readOnlyHint: true },
    });
  });

  it('puts the directory of the other tools into the instructions', () => {
    const instructions = client.client.getInstructions() ?? '';
    expect(instructions).toContain('echo');
    expect(instructions).toContain('write_file');
  });

  it('calls a visible downstream tool by its name', async () => {
    const result = await call(client.client, 'read_text_file', { path: workspace.note });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('quick brown fox');
  });

  it('calls a directory tool by its exact name', async () => {
    const result = await call(client.client, 'echo', { message: 'from the directory' });
    expect(text(result)).toContain('from the directory');
  });

  it('refuses an unknown mode', async () => {
    await expect(createToolSearchMcpServer({ kernel, mode: 'everything' as 'tools' })).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
    });
  });
});

describe.skipIf(!CLI_BUILT)('code mode (serve mcp --mode code)', () => {
  let workspace: Workspace;
  let server: Connected;

  beforeAll(async () => {
    workspace = await createWorkspace();
    const { everything } = workspace.servers();
    const config = await workspace.writeConfig({ mcp: { servers: { everything: everything! } } });
    server = await connectCli(['--config', config, '--mode', 'code']);
  });
  afterAll(async () => {
    await server?.close();
    await workspace?.remove();
  });

  it('lists tool_search_code only', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['tool_search_code']);
    expect(server.client.getInstructions()).toContain('tool_search_code');
  });

  it('searches and calls a downstream tool from code', async () => {
    const code =
      'const hits = await openclaw.tools.search("echo back a message"); return await openclaw.tools.call(hits[0].id, { message: "from code" });';
    const result = await call(server.client, 'tool_search_code', { code });
    expect(errorCode(result)).toBeUndefined();
    expect(text(result)).toContain('from code');
  });
});
