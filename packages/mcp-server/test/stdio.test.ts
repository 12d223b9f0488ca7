/**
 * `tool-search serve mcp` over stdio, driven by the SDK client, in front of
 * real downstream servers (server-everything, server-memory,
 * server-filesystem) and one that cannot start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  CLI_BUILT,
  CLI_MISSING,
  connectCli,
  createWorkspace,
  errorCode,
  hitIds,
  NOTE_TEXT,
  text,
  type Connected,
  type Workspace,
} from './helpers.js';

if (!CLI_BUILT) console.warn(`skipping the stdio suite: ${CLI_MISSING}`);

describe.skipIf(!CLI_BUILT)('serve mcp over stdio (tools mode)', () => {
  let workspace: Workspace;
  let server: Connected;
  const asked: string[] = [];

  beforeAll(async () => {
    workspace = await createWorkspace();
    const config = await workspace.writeConfig({
      mcp: { servers: workspace.servers({ broken: { command: '/nonexistent/mcp-server-binary' } }) },
      tools: { toolSearch: { enabled: true, mode: 'tools' }, approvals: { require: ['mcp:everything:get-sum'] } },
    });
    server = await connectCli(['--config', config], (params) => {
      asked.push(params.message);
      return { action: 'accept', content: { approve: true } };
    });
  });
  afterAll(async () => {
    await server?.close();
    await workspace?.remove();
  });

  it('lists only the control tools', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['tool_call', 'tool_describe', 'tool_search']);
  });

  it('announces tools with list_changed support', () => {
    expect(server.client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
  });

  it('finds a downstream tool by what it does', async () => {
    const result = await call(server.client, 'tool_search', { query: 'echo back a message' });
    expect(hitIds(result)[0]).toBe('mcp:everything:echo');
  });

  it('routes tool_call to the downstream server', async () => {
    const result = await call(server.client, 'tool_call', {
      id: 'mcp:everything:echo',
      args: { message: 'hello through tool search' },
    });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('hello through tool search');
  });

  it('finds the filesystem read tool and reads the temp file through it', async () => {
    const found = hitIds(await call(server.client, 'tool_search', { query: 'read a file' }));
    expect(found).toContain('mcp:filesystem:read_text_file');
    const result = await call(server.client, 'tool_call', {
      id: 'mcp:filesystem:read_text_file',
      args: { path: workspace.note },
    });
    expect(text(result)).toContain(NOTE_TEXT);
  });

  it('keeps state in server-memory across calls', async () => {
    const entity = { name: 'tool_search_probe', entityType: 'test', observations: ['created through serve mcp'] };
    const created = await call(server.client, 'tool_call', {
      id: 'mcp:memory:create_entities',
      args: { entities: [entity] },
    });
    expect(created.isError).toBeFalsy();
    const graph = await call(server.client, 'tool_call', { id: 'mcp:memory:read_graph', args: {} });
    expect(text(graph)).toContain('created through serve mcp');
  });

  it("asks the client's user (elicitation) before a call that needs an approval", async () => {
    const result = await call(server.client, 'tool_call', { id: 'mcp:everything:get-sum', args: { a: 2, b: 3 } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('5');
    expect(asked).toHaveLength(1);
  });

  it('rejects arguments that do not match the downstream schema before calling', async () => {
    const result = await call(server.client, 'tool_call', { id: 'mcp:everything:echo', args: { message: 42 } });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe('TOOL_ARGUMENTS_INVALID');
  });

  it('isolates a server that fails to start: the others still answer', async () => {
    const result = await call(server.client, 'tool_search', { query: 'echo' });
    expect(hitIds(result).some((id) => id.startsWith('mcp:broken:'))).toBe(false);
    expect(hitIds(result)).toContain('mcp:everything:echo');
  });

  it('fails a call to the server that failed to start with MCP_SERVER_UNAVAILABLE', async () => {
    const result = await call(server.client, 'tool_call', { id: 'mcp:broken:anything', args: {} });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe('MCP_SERVER_UNAVAILABLE');
    expect(result.structuredContent).toMatchObject({ error: { server: 'broken', reason: 'spawn' } });
  });

  it('answers an unknown exposed tool name with an error result, not a protocol error', async () => {
    // Not a catalog tool: a catalog tool's name answers TOOL_NOT_LOADED with its schema (issue 44, mode-tools).
    const result = await call(server.client, 'no_such_tool', { message: 'x' });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe('UNKNOWN_TOOL');
  });

  it('writes nothing but protocol messages to stdout, and its log to stderr', () => {
    expect(server.errors).toEqual([]);
    expect(server.stderr()).toContain('MCP server on stdio');
    expect(server.stderr()).toContain('MCP_SERVER_FAILED');
  });
});
