/**
 * `ToolMeta.explicitOnly` (the gateway tool): offered only where an allow list of the run names the tool itself. No
 * profile (not even `full`), group, glob, `*` or missing allowlist offers it; deny still wins where it is named.
 */
import { createKernel, type KernelPlugin } from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import { policyPlugin, type PolicyOptions } from '../src/index.js';

const source: KernelPlugin = {
  name: 'test-core',
  apply({ hooks }) {
    hooks.listTools.tap((sink) =>
      sink.add([
        {
          name: 'read',
          source: 'core',
          owner: 'core',
          description: 'r',
          inputSchema: { type: 'object' },
          execute: async () => ({ content: [] }),
        },
        {
          name: 'gateway',
          source: 'core',
          owner: 'core',
          description: 'g',
          inputSchema: { type: 'object' },
          meta: { explicitOnly: true },
          execute: async () => ({ content: [] }),
        },
      ]),
    );
  },
};

async function listed(options: PolicyOptions, agentId?: string): Promise<string[]> {
  const kernel = createKernel({ plugins: [source, policyPlugin(options)] });
  try {
    const run = await kernel.createRun(agentId ? { agentId } : {});
    const names = run.catalog
      .map((tool) => tool.name)
      .sort()
      .reverse();
    await run.close();
    return names;
  } finally {
    await kernel.close();
  }
}

describe('explicit-only tools', () => {
  it('are not offered by default, by a profile, a group, a glob or *', async () => {
    expect(await listed({})).toEqual(['read']);
    expect(await listed({ tools: { profile: 'full' } })).toEqual(['read']);
    expect(await listed({ tools: { allow: ['*'] } })).toEqual(['read']);
    expect(await listed({ tools: { allow: ['group:automation', 'read'] } })).toEqual(['read']);
    expect(await listed({ tools: { allow: ['gate*', 'read'] } })).toEqual(['read']);
    expect(await listed({ tools: { allow: ['group:openclaw'] } })).toEqual(['read']);
  });

  it("are offered where tools.allow / alsoAllow or the run agent's list names them", async () => {
    expect(await listed({ tools: { alsoAllow: ['gateway'] } })).toEqual(['read', 'gateway']);
    expect(await listed({ tools: { allow: ['core:core:gateway'] } })).toEqual(['gateway']);
    expect(await listed({ tools: { profile: 'full', alsoAllow: ['gateway'] } })).toEqual(['read', 'gateway']);
    const agents = { list: [{ id: 'ops', tools: { alsoAllow: ['gateway'] } }, { id: 'worker' }] };
    expect(await listed({ agents }, 'ops')).toEqual(['read', 'gateway']);
    expect(await listed({ agents }, 'worker')).toEqual(['read']);
    expect(await listed({ agents })).toEqual(['read']);
  });

  it('deny still wins where they are named', async () => {
    expect(await listed({ tools: { alsoAllow: ['gateway'], deny: ['group:automation'] } })).toEqual(['read']);
    const agents = { list: [{ id: 'ops', tools: { alsoAllow: ['gateway'], deny: ['gateway'] } }] };
    expect(await listed({ agents }, 'ops')).toEqual(['read']);
  });
});
