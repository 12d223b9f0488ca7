/**
 * Index reuse across runs: a new run over an unchanged catalog reuses the
 * core an earlier run built (no rebuild), policy is a query-time filter over
 * the run's visible ids, and results are identical to a fresh build.
 */
import { describe, expect, it } from 'vitest';
import { createKernel, type KernelPlugin, type ToolDefinition, type ToolDescriptor } from '@tool-search/kernel';
import { createToolIndex, indexBuildCount, indexForRun } from '../src/index.js';
import { catalog } from './helpers/tools.js';

const definitions: ToolDefinition[] = catalog.map(({ id: _id, catalogMode: _mode, ...definition }) => definition);
const source = (tools: readonly ToolDefinition[]): KernelPlugin => ({
  name: 'catalog',
  apply: ({ hooks }) => hooks.listTools.tap((sink) => sink.add(tools)),
});
/** Agent "restricted" may not see GitHub tools. */
const policy: KernelPlugin = {
  name: 'agent-policy',
  apply: ({ hooks }) =>
    hooks.filterPolicy.tap((tools: readonly ToolDescriptor[], ctx) =>
      ctx.run.request.agentId === 'restricted' ? tools.filter((tool) => tool.owner !== 'github') : tools,
    ),
};
const QUERIES = [
  'read a file',
  'open a github issue',
  'search issues',
  'post to slack',
  '天气预报',
  'write_file',
  'zebra',
  'list the folders in a directory',
];
const searchAll = (index: ReturnType<typeof createToolIndex>) =>
  QUERIES.map((query) => index.search(query, { limit: 20 }));

describe('index reuse across runs', () => {
  it('a new run over an unchanged catalog reuses the built index, with results identical to a fresh build', async () => {
    const kernel = createKernel({ plugins: [source(definitions), policy] });
    const first = await kernel.createRun();
    const before = indexBuildCount();
    const firstResults = searchAll(indexForRun(first));
    expect(indexBuildCount()).toBe(before + 1);
    const second = await kernel.createRun();
    expect(second.catalog).not.toBe(first.catalog);
    const secondResults = searchAll(indexForRun(second));
    expect(indexBuildCount()).toBe(before + 1);
    expect(secondResults).toEqual(firstResults);
    const fresh = searchAll(createToolIndex(second.catalog.map((tool) => structuredClone(tool))));
    expect(secondResults).toEqual(fresh);
  });

  it('policy is a query-time filter: a restricted run reuses the index and never sees a hidden tool', async () => {
    const kernel = createKernel({ plugins: [source(definitions), policy] });
    const open = indexForRun(await kernel.createRun({ agentId: 'open' }));
    const builds = indexBuildCount();
    const restrictedRun = await kernel.createRun({ agentId: 'restricted' });
    const restricted = indexForRun(restrictedRun);
    expect(indexBuildCount()).toBe(builds);
    expect(restricted.size).toBe(restrictedRun.catalog.length);
    const hidden = new Set(catalog.filter((tool) => tool.owner === 'github').map((tool) => tool.id));
    for (const query of QUERIES) {
      const ids = restricted.search(query, { limit: 20 }).hits.map((hit) => hit.id);
      expect(ids.filter((id) => hidden.has(id))).toEqual([]);
      // The same ranking as the unrestricted run, with the hidden tools taken out.
      const openIds = open
        .search(query, { limit: 20 })
        .hits.map((hit) => hit.id)
        .filter((id) => !hidden.has(id));
      if (!restricted.search(query).weak) expect(ids).toEqual(openIds);
    }
    expect(restricted.describe('create_issue')).toBeUndefined();
    expect(restricted.describe('mcp:github:create_issue')).toBeUndefined();
    expect(restricted.suggest('create_isue').filter((id) => hidden.has(id))).toEqual([]);
    expect(open.describe('create_issue')?.id).toBe('mcp:github:create_issue');
  });

  it('a changed catalog builds a new index', async () => {
    const before = indexBuildCount();
    const changed = definitions.map((definition) => ({ ...definition }));
    indexForRun(await createKernel({ plugins: [source(changed)] }).createRun()).search('read a file');
    expect(indexBuildCount()).toBe(before + 1);
  });
});
