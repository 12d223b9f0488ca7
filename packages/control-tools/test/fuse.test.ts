import { describe, expect, it } from 'vitest';
import { createKernel, type KernelPlugin, type RunApi } from '@tool-search/kernel';
import { createControlTools } from '@tool-search/control-tools';

const tool = (name: string, description: string) => ({
  name,
  source: 'plugin' as const,
  owner: 'tracker',
  description,
  inputSchema: { type: 'object' },
});
const source: KernelPlugin = {
  name: 'src',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) =>
      sink.add([
        tool('create_issue', 'Create an issue in a repository.'),
        tool('file_bug', 'File a bug report with steps to reproduce.'),
        tool('list_issues', 'List the issues of a repository.'),
        tool('send_email', 'Send an email.'),
      ]),
    ),
};

async function setup() {
  const run = await createKernel({ plugins: [source] }).createRun();
  const search = createControlTools({ searchDefaultLimit: 8, maxSearchLimit: 20, callHint: '' }).find(
    (t) => t.name === 'tool_search',
  )!;
  const ctx = { run: run as RunApi, signal: new AbortController().signal };
  return { call: (args: Record<string, unknown>) => search.handler!(args, ctx), search };
}

describe('tool_search with fuse', () => {
  it('declares fuse in its schema and tells the model what it is for', async () => {
    const { search } = await setup();
    expect((search.inputSchema as { properties: Record<string, unknown> }).properties['fuse']).toMatchObject({
      type: 'boolean',
    });
    expect(search.description).toContain('fuse');
  });

  it('several phrasings of one need come back as one ranked list holding what each phrasing found', async () => {
    const { call } = await setup();
    const fused = await call({ queries: ['create an issue', 'report a bug'], fuse: true });
    const result = fused.structuredContent as { query: string; hits: { id: string }[]; results?: unknown };
    expect(result.results).toBeUndefined();
    expect(result.query).toBe('create an issue | report a bug');
    const ids = result.hits.map((hit) => hit.id);
    expect(ids.slice(0, 2).sort()).toEqual(['plugin:tracker:create_issue', 'plugin:tracker:file_bug']);
    expect(ids).not.toContain('plugin:tracker:send_email');
  });

  it('without fuse the same queries stay a batch, one result per query', async () => {
    const { call } = await setup();
    const batch = await call({ queries: ['create an issue', 'report a bug'] });
    expect((batch.structuredContent as { results: unknown[] }).results).toHaveLength(2);
    // fuse with one query is a plain search.
    const one = await call({ query: 'report a bug', fuse: true });
    expect((one.structuredContent as { hits: { id: string }[] }).hits[0]?.id).toBe('plugin:tracker:file_bug');
  });
});
