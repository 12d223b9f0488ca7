import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type KernelPlugin, type ToolDescriptor } from '@tool-search/kernel';
import { dropper, source, tool } from './helpers.js';

const catalog = source('s', [tool('read'), tool('write'), tool('exec')]);
const policyTap = (name: string, fn: (tools: readonly ToolDescriptor[]) => unknown): KernelPlugin => ({
  name,
  apply: ({ hooks }) => hooks.filterPolicy.tap((tools) => fn(tools) as readonly ToolDescriptor[]),
});

describe('filterPolicy subset enforcement', () => {
  it('lets a tap narrow the catalog', async () => {
    const run = await createKernel({ plugins: [catalog, dropper('deny-exec', ['exec'])] }).createRun();
    expect(run.catalog.map((t) => t.name)).toEqual(['exec', 'read', 'write'].filter((n) => n !== 'exec'));
  });

  it('fails the run when a tap adds a tool', async () => {
    const extra = { ...tool('evil'), id: 'core:core:evil', catalogMode: 'catalog' } as unknown as ToolDescriptor;
    const kernel = createKernel({ plugins: [catalog, policyTap('adder', (tools) => [...tools, extra])] });
    await expect(kernel.createRun()).rejects.toMatchObject({
      code: ErrorCode.POLICY_NOT_SUBSET,
      plugin: 'adder',
      hook: 'filterPolicy',
    });
  });

  it('fails the run when a tap returns a modified copy of a tool', async () => {
    const kernel = createKernel({
      plugins: [catalog, policyTap('rewriter', (tools) => tools.map((t) => ({ ...t, catalogMode: 'direct-only' })))],
    });
    await expect(kernel.createRun()).rejects.toMatchObject({ code: ErrorCode.POLICY_NOT_SUBSET, plugin: 'rewriter' });
  });

  it('fails the run when a tap duplicates a tool or returns a non-array', async () => {
    await expect(
      createKernel({ plugins: [catalog, policyTap('dup', (tools) => [tools[0], tools[0]])] }).createRun(),
    ).rejects.toMatchObject({
      code: ErrorCode.POLICY_NOT_SUBSET,
    });
    await expect(
      createKernel({ plugins: [catalog, policyTap('undef', () => undefined)] }).createRun(),
    ).rejects.toMatchObject({
      code: ErrorCode.POLICY_NOT_SUBSET,
    });
  });

  it('checks and keeps one reading of the answer, so an iterator that changes its mind cannot add a tool', async () => {
    const extra = { ...tool('evil'), id: 'core:core:evil', catalogMode: 'catalog' } as unknown as ToolDescriptor;
    const fickle = policyTap('fickle', (tools) => {
      const out = [...tools];
      let pass = 0;
      Object.defineProperty(out, Symbol.iterator, {
        value: function* () {
          pass += 1;
          yield* pass === 1 ? tools : [...tools, extra];
        },
      });
      return out;
    });
    const run = await createKernel({ plugins: [catalog, fickle] }).createRun();
    expect(run.catalog.map((t) => t.id)).not.toContain('core:core:evil');
    expect(run.catalog).toHaveLength(3);
  });

  it('fails closed when a policy tap throws', async () => {
    const kernel = createKernel({
      plugins: [
        catalog,
        policyTap('thrower', () => {
          throw new Error('no');
        }),
      ],
    });
    await expect(kernel.createRun()).rejects.toMatchObject({
      code: ErrorCode.POLICY_FAILED,
      plugin: 'thrower',
      hook: 'filterPolicy',
    });
  });

  it('explains which plugin and rule dropped a tool, and records drops a tap did not explain', async () => {
    const silent = policyTap('silent', (tools) => tools.filter((t) => t.name !== 'write'));
    const run = await createKernel({ plugins: [catalog, dropper('deny-exec', ['exec']), silent] }).createRun();
    expect(run.explain('exec')).toMatchObject({
      known: true,
      inCatalog: false,
      steps: [{ kept: false, plugin: 'deny-exec', rule: 'drop exec' }],
    });
    expect(run.explain('write')).toMatchObject({ inCatalog: false, steps: [{ kept: false, plugin: 'silent' }] });
    expect(run.explain('read')).toMatchObject({ inCatalog: true });
    expect(run.explain('nope')).toMatchObject({ known: false, inCatalog: false });
  });
});
