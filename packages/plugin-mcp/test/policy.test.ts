/** Policy applies to MCP tools like any other: `mcp:<server>:*` and `group:mcp` in a deny list. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type KernelPlugin } from '@tool-search/kernel';
import { mcpPlugin } from '../src/index.js';
import { fixture, nodeServer } from './helpers.js';

/** A tiny stand-in for the policy package: deny by id glob (`*` suffix) or `group:<source>`, read at each run. */
function denyPlugin(rules: () => readonly string[]): KernelPlugin {
  const denied = (id: string, source: string) =>
    rules().some((rule) =>
      rule.startsWith('group:')
        ? rule.slice(6) === source
        : rule.endsWith('*')
          ? id.startsWith(rule.slice(0, -1))
          : rule === id,
    );
  return {
    name: 'test-deny-policy',
    apply({ hooks }) {
      hooks.filterPolicy.tap((tools, ctx) =>
        tools.filter((tool) => {
          const drop = denied(tool.id, tool.source);
          if (drop) ctx.trace(tool.id, { step: 'deny', kept: false, rule: 'deny' });
          return !drop;
        }),
      );
    },
  };
}

// One kernel (one start of each server); each test sets the deny list its runs see.
describe('policy on MCP tools', () => {
  let deny: readonly string[] = [];
  let kernel: Kernel;
  beforeAll(() => {
    const servers = { everything: nodeServer('server-everything', 'stdio'), other: fixture('crash-on-call') };
    kernel = createKernel({ plugins: [mcpPlugin({ servers }), denyPlugin(() => deny)] });
  });
  afterAll(() => kernel.close());

  it('drops every tool of a server denied with mcp:<server>:*', async () => {
    deny = ['mcp:everything:*'];
    const run = await kernel.createRun();
    expect([...new Set(run.catalog.map((tool) => tool.owner))]).toEqual(['other']);
    await expect(run.call('mcp:everything:echo', { message: 'x' })).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect(run.explain('mcp:everything:echo')).toMatchObject({ known: true, inCatalog: false });
  });

  it('drops every MCP tool with group:mcp', async () => {
    deny = ['group:mcp'];
    const run = await kernel.createRun();
    expect(run.catalog).toEqual([]);
    expect(run.listed.length).toBeGreaterThan(0);
  });
});
