/**
 * What one server can send is bounded: listings stop at the tool and page
 * caps (with a warning), a malformed tool is dropped on its own (with a
 * diagnostic naming it) and a result over the message limit says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Diagnostic, type Kernel, type Run } from '@tool-search/kernel';
import { mcpPlugin, type McpPlugin } from '../src/index.js';
import { fixture } from './helpers.js';

describe('listing bounds and per-tool checks', () => {
  let plugin: McpPlugin;
  let kernel: Kernel;
  let run: Run;

  const diagnostics = (server: string, code: string): Diagnostic[] =>
    run.diagnostics.filter((d) => d.code === code && d.details?.server === server);

  beforeAll(async () => {
    plugin = mcpPlugin({
      connectTimeoutMs: 15_000, // generous: 20,000 tools on one page, on a loaded machine
      maxToolsPerServer: 500,
      maxListPages: 5,
      servers: {
        tools: fixture('bad-tools'),
        deep: fixture('deep-schema'),
        pages: fixture('endless-pages'),
        many: fixture('many-tools'),
      },
    });
    kernel = createKernel({ plugins: [plugin], sourceTimeoutMs: 25_000 });
    run = await kernel.createRun();
  }, 40_000);
  afterAll(() => kernel.close());

  it('keeps the valid tools of a server that lists malformed ones', () => {
    expect(run.tool('mcp:tools:good')).toBeDefined();
    expect(run.tool('mcp:tools:also_good')).toBeDefined();
    expect(run.diagnostics.filter((d) => d.code === 'MCP_SERVER_FAILED')).toEqual([]);
  });

  it('drops each malformed tool with a TOOL_INVALID diagnostic naming it', () => {
    const named = diagnostics('tools', 'TOOL_INVALID').map((d) => d.details?.tool);
    expect(named.sort()).toEqual(
      [
        '#4',
        '#8',
        'bad_annotations',
        'bad_description',
        'bad_input_type',
        'bad_output_schema',
        'bad_required',
        'no_input_schema',
      ].sort(),
    );
    for (const name of ['bad_input_type', 'no_input_schema', 'bad_required', 'bad_annotations', 'bad_output_schema']) {
      expect(run.tool(`mcp:tools:${name}`)).toBeUndefined();
    }
  });

  it('does not time a server out over a 3,000-deep schema, and keeps its other tools', () => {
    expect(diagnostics('deep', 'MCP_SERVER_FAILED')).toEqual([]);
    expect(run.tool('mcp:deep:echo')).toBeDefined();
    expect(diagnostics('deep', 'TOOL_INVALID')).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ tool: 'deep' }) }),
    ]);
  });

  it('stops following endless cursors at maxListPages, keeping what was listed', () => {
    expect(diagnostics('pages', 'MCP_LIST_TRUNCATED')).toEqual([
      expect.objectContaining({
        level: 'warning',
        details: expect.objectContaining({ limit: 'maxListPages', value: 5, kept: 50 }),
      }),
    ]);
    expect(run.listed.filter((tool) => tool.owner === 'pages')).toHaveLength(50);
  });

  it('keeps at most maxToolsPerServer tools of one huge page', () => {
    expect(diagnostics('many', 'MCP_LIST_TRUNCATED')).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({ limit: 'maxToolsPerServer', value: 500, kept: 500 }),
      }),
    ]);
    expect(run.listed.filter((tool) => tool.owner === 'many')).toHaveLength(500);
  });

  it('warns again in every run (the listing is cached, its diagnostics are not lost)', async () => {
    const again = await kernel.createRun();
    expect(again.diagnostics.filter((d) => d.code === 'MCP_LIST_TRUNCATED')).toHaveLength(2);
    expect(again.diagnostics.filter((d) => d.code === 'TOOL_INVALID' && d.details?.server === 'tools')).toHaveLength(8);
    await again.close();
  });
});

describe('a tool result over the message size limit', () => {
  it('fails the call with MCP_RESULT_TOO_LARGE naming the limit and the size, and the server stays usable', async () => {
    const kernel = createKernel({ plugins: [mcpPlugin({ servers: { big: fixture('huge-result') } })] });
    try {
      const run = await kernel.createRun();
      const outcome = await run.call('mcp:big:huge', {});
      expect(outcome).toMatchObject({ status: 'error', error: { code: 'MCP_RESULT_TOO_LARGE' } });
      // The contract here is the message itself: it names the limit and the size (call outcomes carry code and message).
      const message = (outcome as { error: { message: string } }).error.message;
      expect(message).toContain(`${10 * 1024 * 1024}-byte`);
      expect(Number(/(\d+) bytes/.exec(message)?.[1])).toBeGreaterThan(11 * 1024 * 1024);
      expect(await run.call('mcp:big:echo', { message: 'still here' })).toMatchObject({ status: 'ok' });
    } finally {
      await kernel.close();
    }
  }, 30_000);
});
