/** The demo catalog says its tools are fakes, and holds the README's headline tool: a GitHub-style create_issue. */
import { describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { FAKE_DESCRIPTION_PREFIX, fakeCatalogPlugin } from '../src/index.js';

const runWith = (options: Parameters<typeof fakeCatalogPlugin>[0]) =>
  createKernel({ plugins: [fakeCatalogPlugin(options)] }).createRun();

describe('the fake tools say they are fakes', () => {
  it('every description, core and plugin, starts by saying the tool is a fake', async () => {
    const run = await runWith({ tools: 50, core: true, demoTools: true });
    expect(run.catalog).toHaveLength(75);
    for (const tool of run.catalog) expect(tool.description.startsWith(FAKE_DESCRIPTION_PREFIX)).toBe(true);
    expect(FAKE_DESCRIPTION_PREFIX).toMatch(/fake/i);
  });
});

describe('demoTools: a GitHub-style create_issue (title, body)', () => {
  it('takes the first plugin slot, so tools stays the number of plugin tools', async () => {
    const run = await runWith({ tools: 3, core: false, demoTools: true });
    expect(run.catalog.map((tool) => tool.id).sort()).toEqual([
      'plugin:fake-catalog:fake_plugin_tool_0001',
      'plugin:fake-catalog:fake_plugin_tool_0002',
      'plugin:github:create_issue',
    ]);
    expect((await runWith({ tools: 0, core: false, demoTools: true })).catalog).toEqual([]);
  });

  it('takes title and body and answers FAKE_TOOL_OK', async () => {
    const run = await runWith({ tools: 1, core: false, demoTools: true });
    const tool = run.tool('create_issue')!;
    expect(Object.keys((tool.inputSchema as { properties: object }).properties)).toEqual(
      expect.arrayContaining(['title', 'body']),
    );
    expect(tool.inputSchema.required).toEqual(['title']);
    const outcome = await run.call('create_issue', { title: 'Crash on startup', body: 'Steps to reproduce...' });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: {
        content: [
          {
            type: 'text',
            text: 'FAKE_TOOL_OK create_issue {"title":"Crash on startup","body":"Steps to reproduce..."}',
          },
          { type: 'text', text: expect.stringContaining('create_issue is a fake tool') },
        ],
      },
    });
    await expect(run.call('create_issue', { body: 'no title' })).rejects.toMatchObject({
      code: 'TOOL_ARGUMENTS_INVALID',
    });
  });

  it('is off by default: a configured fake catalog is only generated tools', async () => {
    expect((await runWith({ tools: 2, core: false })).tool('create_issue')).toBeUndefined();
  });
});
