/**
 * One kernel, one healthy server and one server per way of failing to list:
 * each failure is a diagnostic naming the server and why; the healthy
 * server's tools are untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Diagnostic, type Kernel, type Run } from '@tool-search/kernel';
import { mcpPlugin, type McpPlugin } from '../src/index.js';
import { fixture, isAlive } from './helpers.js';

describe('a server that fails is isolated', () => {
  let plugin: McpPlugin;
  let kernel: Kernel;
  let run: Run;

  const failure = (server: string): Diagnostic | undefined =>
    run.diagnostics.find((d) => d.code === 'MCP_SERVER_FAILED' && d.details?.server === server);

  beforeAll(async () => {
    plugin = mcpPlugin({
      connectTimeoutMs: 4_000, // generous: healthy servers must start on a loaded machine
      servers: {
        healthy: fixture('crash-on-call'),
        exits: fixture('exit-on-start'),
        exitsLate: fixture('exit-late'),
        missing: { command: '/nonexistent/mcp-server-binary' },
        garbage: fixture('garbage'),
        hangs: fixture('hang-list'),
        schemas: fixture('bad-schema'),
      },
    });
    kernel = createKernel({ plugins: [plugin] });
    run = await kernel.createRun();
  });
  afterAll(() => kernel.close());

  it('keeps the tools of the healthy server', () => {
    expect(run.tool('mcp:healthy:echo')).toBeDefined();
  });

  it('reports a server that exits on start, with its stderr', () => {
    expect(failure('exits')).toMatchObject({
      level: 'error',
      plugin: '@tool-search/plugin-mcp',
      details: { reason: 'exit' },
    });
    expect(failure('exits')?.message).toContain('cannot open the database');
  });

  // The race the machine's load used to decide, made certain: our first write fails (EPIPE) 200 ms before the
  // server's last words reach its stderr.
  it('reports a server that closed its input and ended, with what it wrote to stderr after our write failed', () => {
    expect(failure('exitsLate')).toMatchObject({ details: { reason: 'exit' } });
    expect(failure('exitsLate')?.message).toContain('the licence file is missing');
  });

  it('reports a command that cannot be spawned', () => {
    expect(failure('missing')).toMatchObject({ details: { reason: 'spawn' } });
  });

  it('reports a server that writes garbage on stdout', () => {
    expect(failure('garbage')).toMatchObject({ details: { reason: 'protocol' } });
  });

  it('reports a server that never answers tools/list once its timeout passed', () => {
    expect(failure('hangs')).toMatchObject({ details: { reason: 'timeout' } });
  });

  it('lists no tool of a failed server', () => {
    const owners = new Set(run.listed.map((tool) => tool.owner));
    expect([...owners].sort()).toEqual(['healthy', 'schemas']);
  });

  it('lets the kernel drop a tool whose input schema is invalid, and keeps its siblings', () => {
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'TOOL_SCHEMA_INVALID', toolId: 'mcp:schemas:bad' }),
    );
    expect(run.tool('mcp:schemas:bad')).toBeUndefined();
    expect(run.tool('mcp:schemas:good')).toBeDefined();
  });

  it('ends the hung server process it gave up on, at the latest on shutdown', async () => {
    const hung = plugin.servers().find((server) => server.name === 'hangs');
    expect(hung?.state).toBe('failed');
    expect(hung?.pids.length).toBe(1);
    await kernel.close();
    expect(hung?.pids.filter(isAlive)).toEqual([]);
  });
});
