import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode } from '@tool-search/kernel';
import { source, tool } from './helpers.js';

describe('listTools isolation', () => {
  it('a source that throws loses only its own tools, with a diagnostic naming plugin and hook', async () => {
    const kernel = createKernel({
      plugins: [
        source('good', [tool('read')]),
        {
          name: 'bad',
          apply({ hooks }) {
            hooks.listTools.tapPromise(async (sink) => {
              sink.add(tool('half_added', { source: 'plugin', owner: 'bad' }));
              throw new Error('boom');
            });
          },
        },
      ],
    });
    const run = await kernel.createRun();
    expect(run.catalog.map((t) => t.name)).toEqual(['read']);
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({ code: ErrorCode.SOURCE_FAILED, plugin: 'bad', hook: 'listTools' }),
    );
  });

  it('a sync tap that throws is isolated too', async () => {
    const kernel = createKernel({
      plugins: [
        source('good', [tool('read')]),
        {
          name: 'sync-bad',
          apply: ({ hooks }) =>
            hooks.listTools.tap(() => {
              throw new Error('sync boom');
            }),
        },
      ],
    });
    const run = await kernel.createRun();
    expect(run.catalog).toHaveLength(1);
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({ code: ErrorCode.SOURCE_FAILED, plugin: 'sync-bad' }),
    );
  });

  it('a source that hangs times out; late additions are discarded', async () => {
    let lateSink: { add(t: unknown): void } | undefined;
    const kernel = createKernel({
      sourceTimeoutMs: 50,
      plugins: [
        source('good', [tool('read')]),
        {
          name: 'slow',
          apply({ hooks }) {
            hooks.listTools.tapPromise((sink) => {
              lateSink = sink as unknown as { add(t: unknown): void };
              return new Promise(() => undefined);
            });
          },
        },
      ],
    });
    const run = await kernel.createRun();
    lateSink?.add(tool('late', { source: 'plugin', owner: 'slow' }));
    expect(run.catalog.map((t) => t.name)).toEqual(['read']);
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({ code: ErrorCode.SOURCE_TIMEOUT, plugin: 'slow', hook: 'listTools' }),
    );
  });

  it('drops a tool whose input schema is not valid JSON Schema, naming source and tool', async () => {
    const run = await createKernel({
      plugins: [
        source('s', [
          tool('good'),
          tool('broken', {
            source: 'mcp',
            owner: 'srv',
            inputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } },
          }),
        ]),
      ],
    }).createRun();
    expect(run.catalog.map((t) => t.id)).toEqual(['core:core:good']);
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({ code: ErrorCode.TOOL_SCHEMA_INVALID, toolId: 'mcp:srv:broken' }),
    );
  });

  it('drops a tool whose input schema is not an object schema', async () => {
    const run = await createKernel({
      plugins: [source('s', [tool('arr', { inputSchema: { type: 'array' } })])],
    }).createRun();
    expect(run.catalog).toEqual([]);
    expect(run.diagnostics[0]).toMatchObject({ code: ErrorCode.TOOL_SCHEMA_INVALID });
  });

  it('rejects malformed definitions with TOOL_INVALID', async () => {
    const run = await createKernel({
      plugins: [source('s', [tool('has space'), tool('ok'), tool('x', { source: 'nope' as 'core' })])],
    }).createRun();
    expect(run.catalog.map((t) => t.name)).toEqual(['ok']);
    expect(run.diagnostics.filter((d) => d.code === ErrorCode.TOOL_INVALID)).toHaveLength(2);
  });

  it('derives ids as <source>:<owner>:<name> and sorts the catalog by id', async () => {
    const run = await createKernel({
      plugins: [
        source('s1', [tool('zeta', { source: 'plugin', owner: 'p' }), tool('read')]),
        source('s2', [tool('alpha', { source: 'mcp', owner: 'github' })]),
      ],
    }).createRun();
    expect(run.catalog.map((t) => t.id)).toEqual(['core:core:read', 'mcp:github:alpha', 'plugin:p:zeta']);
  });

  it('freezes descriptors so no plugin can change them after listing', async () => {
    const run = await createKernel({ plugins: [source('s', [tool('read')])] }).createRun();
    const descriptor = run.catalog[0]!;
    expect(Object.isFrozen(descriptor)).toBe(true);
    expect(Object.isFrozen(descriptor.inputSchema)).toBe(true);
  });

  it('keeps the first of two identical ids and reports the duplicate', async () => {
    const run = await createKernel({ plugins: [source('a', [tool('read')]), source('b', [tool('read')])] }).createRun();
    expect(run.catalog).toHaveLength(1);
    expect(run.diagnostics).toContainEqual(expect.objectContaining({ code: ErrorCode.TOOL_ID_DUPLICATE }));
  });

  it('resolves a shared name by source precedence, with a diagnostic; others stay callable by id', async () => {
    const run = await createKernel({
      plugins: [
        source('s', [
          tool('read', { source: 'mcp', owner: 'fs' }),
          tool('read'),
          tool('read', { source: 'plugin', owner: 'p' }),
        ]),
      ],
    }).createRun();
    expect(run.tool('read')?.id).toBe('core:core:read');
    expect(run.tool('mcp:fs:read')?.id).toBe('mcp:fs:read');
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({
        code: ErrorCode.TOOL_NAME_SHADOWED,
        details: expect.objectContaining({ winner: 'core:core:read' }),
      }),
    );
    const outcome = await run.call('mcp:fs:read', {});
    expect(outcome).toMatchObject({ status: 'ok', toolId: 'mcp:fs:read' });
  });

  it('refuses a run when a client tool collides with a catalog tool, naming both', async () => {
    const kernel = createKernel({
      plugins: [source('s', [tool('read'), tool('read', { source: 'client', owner: 'client' })])],
    });
    await expect(kernel.createRun()).rejects.toMatchObject({
      code: ErrorCode.CLIENT_TOOL_COLLISION,
      details: { clientTool: 'client:client:read', catalogTool: 'core:core:read' },
    });
  });
});
