/** Policy applies to MCP tools like any other: `mcp:<server>:*` and `group:mcp` in a deny list. */
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type KernelPlugin } from '@tool-search/kernel';
import { mcpPlugin } from '../src/index.js';
import { fixture, nodeServer } from './helpers.js';

/** A tiny stand-in for the policy package: deny by id glob (`*` suffix) or `group:<source>`. */
function denyPlugin(deny: readonly string[]): KernelPlugin {
  const denied = (id: string, source: string) =>
    deny.some((rule) => (rule.startsWith('group:') ? rule.slice(6) === source : rule.endsWith('*') ? id.startsWith(rule.slice(0, -1)) : rule === id));
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

const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

function kernelWith(deny: readonly string[]): Kernel {
  const servers = { everything: nodeServer('server-everything', 'stdio'), other: fixture('crash-on-call') };
  const kernel = createKernel({ plugins: [mcpPlugin({ servers }), denyPlugin(deny)] });
  kernels.push(kernel);
  return kernel;
}

describe('policy on MCP tools', () => {
  it('drops every tool of a server denied with mcp:<server>:*', async () => {
    const run = await kernelWith(['mcp:everything:*']).createRun();
    expect([...new Set(run.catalog.map((tool) => tool.owner))]).toEqual(['other']);
    await expect(run.call('mcp:everything:echo', { message: 'x' })).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect(run.explain('mcp:everything:echo')).toMatchObject({ known: true, inCatalog: false });
  });

  it('drops every MCP tool with group:mcp', async () => {
    const run = await kernelWith(['group:mcp']).createRun();
    expect(run.catalog).toEqual([]);
    expect(run.listed.length).toBeGreaterThan(0);
  });
});
