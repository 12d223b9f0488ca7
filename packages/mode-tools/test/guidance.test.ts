import { describe, expect, it } from 'vitest';
import { createKernel, type KernelPlugin } from '@tool-search/kernel';
import { toolsModePlugin } from '@tool-search/mode-tools';

const source: KernelPlugin = {
  name: 'gh',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) => {
      sink.add({
        name: 'create_issue',
        source: 'plugin',
        owner: 'gh',
        description: 'Create an issue',
        inputSchema: { type: 'object' },
      });
      sink.guidance({
        title: 'GitHub issues',
        text: 'Search for duplicates before create_issue.',
        tools: ['create_issue'],
      });
    }),
};

describe('plugin guidance in tools mode', () => {
  it('stays out of the system prompt for hidden tools and arrives with describe', async () => {
    const run = await createKernel({ plugins: [source, toolsModePlugin()] }).createRun();
    const exposure = await run.exposure('tools');
    expect(exposure.system).not.toContain('duplicates');
    const described = await exposure.call('tool_describe', { id: 'plugin:gh:create_issue' });
    expect(described.status === 'ok' && JSON.stringify(described.result)).toContain('Search for duplicates');
  });
});
