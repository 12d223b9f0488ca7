import { describe, expect, it } from 'vitest';
import { createKernel, type KernelPlugin } from '@tool-search/kernel';
import { dropper, tool } from './helpers.js';

const withGuidance: KernelPlugin = {
  name: 'gh',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) => {
      sink.add([
        tool('create_issue', { source: 'plugin', owner: 'gh' }),
        tool('pinned', { source: 'plugin', owner: 'gh', catalogMode: 'direct-only' }),
      ]);
      sink.guidance({
        title: 'Issues',
        text: 'Search for duplicates before create_issue.\u0007',
        tools: ['create_issue'],
      });
      sink.guidance({ title: 'Pinned', text: 'Use pinned for pins.', tools: ['pinned'] });
    }),
};

describe('plugin guidance', () => {
  it('reaches the system prompt only for visible tools, sanitized', async () => {
    const run = await createKernel({ plugins: [withGuidance] }).createRun();
    const direct = await run.exposure('direct');
    expect(direct.system).toContain('Search for duplicates before create_issue.');
    expect(direct.system).not.toContain('\u0007');
    expect(direct.system).toContain('Use pinned for pins.');
  });

  it('is dropped with the tool when policy drops it', async () => {
    const run = await createKernel({ plugins: [withGuidance, dropper('deny', ['create_issue'])] }).createRun();
    expect(run.guidanceFor(['plugin:gh:create_issue'])).toBe('');
    expect((await run.exposure('direct')).system).not.toContain('duplicates');
  });

  it('is available for described tools and bounded by a budget', async () => {
    const run = await createKernel({ plugins: [withGuidance] }).createRun();
    expect(run.guidanceFor(['plugin:gh:create_issue'])).toContain('Issues');
    expect(run.guidanceFor(['plugin:gh:create_issue', 'plugin:gh:pinned'], 40)).toContain('left out');
  });
});
