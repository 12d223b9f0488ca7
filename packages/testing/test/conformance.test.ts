import { describe, expect, it } from 'vitest';
import type { KernelPlugin, ToolDefinition } from '@tool-search/kernel';
import { checkSourceConformance, createTestHarness } from '@tool-search/testing';

const good = (name = 'demo'): KernelPlugin => ({
  name,
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) =>
      sink.add({
        name: 'echo',
        source: 'plugin',
        owner: name,
        description: 'Echo',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        execute: (args) => ({ content: [{ type: 'text', text: String(args.text) }] }),
      }),
    ),
});

describe('checkSourceConformance', () => {
  it('passes a well-behaved source', async () => {
    const report = await checkSourceConformance(good());
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report).toMatchObject({ ok: true, plugin: 'demo', tools: 1 });
  });

  it('fails a source whose schema is invalid', async () => {
    const bad: KernelPlugin = {
      name: 'bad-schema',
      apply: ({ hooks }) =>
        hooks.listTools.tap((sink) =>
          sink.add([
            { name: 'ok', source: 'plugin', owner: 'bad-schema', description: '', inputSchema: { type: 'object' } },
            {
              name: 'broken',
              source: 'plugin',
              owner: 'bad-schema',
              description: '',
              inputSchema: { type: 'object', properties: { a: { type: 7 } } },
            },
          ] satisfies ToolDefinition[]),
        ),
    };
    const report = await checkSourceConformance(bad);
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.name === 'schemas-valid')?.ok).toBe(false);
  });

  it('fails a source whose ids change between runs', async () => {
    let n = 0;
    const unstable: KernelPlugin = {
      name: 'unstable',
      apply: ({ hooks }) =>
        hooks.listTools.tap((sink) =>
          sink.add({
            name: `t${n++}`,
            source: 'plugin',
            owner: 'unstable',
            description: '',
            inputSchema: { type: 'object' },
          }),
        ),
    };
    const report = await checkSourceConformance(unstable);
    expect(report.checks.find((c) => c.name === 'ids-stable')?.ok).toBe(false);
  });

  it('gives a harness with a run over one plugin', async () => {
    const harness = await createTestHarness(good());
    await expect(harness.run.call('echo', { text: 'hi' })).resolves.toMatchObject({ status: 'ok' });
    await harness.close();
  });
});
