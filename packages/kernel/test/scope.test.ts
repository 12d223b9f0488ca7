/**
 * `CallOptions.scope`: what a front end hands to the executor reaches it on
 * every path a call can take (direct, hidden name, a control tool's own call).
 */
import { describe, expect, it } from 'vitest';
import { createKernel, type CallScope, type ExecuteContext, type KernelPlugin } from '@tool-search/kernel';
import { ok, source, tool } from './helpers.js';

declare module '@tool-search/kernel' {
  interface CallScope {
    testCaller?: string;
  }
}

function recorder() {
  const seen: (Readonly<CallScope> | undefined)[] = [];
  const execute = (_args: unknown, ctx: ExecuteContext) => {
    seen.push(ctx.scope);
    return ok('done');
  };
  return { seen, tools: [tool('visible', { execute }), tool('hidden', { execute })] };
}

/** A mode with one control tool that calls `hidden` through the run, and a resolver for hidden names. */
const relayMode: KernelPlugin = {
  name: 'relay-mode',
  apply({ hooks }) {
    hooks.materialize.for('relay').tap((draft, ctx) => {
      draft.tools.push({
        name: 'relay',
        description: 'calls hidden',
        inputSchema: { type: 'object' },
        handler: async (_args, control) => {
          const outcome = await control.run.call('hidden', {});
          return outcome.status === 'ok' ? outcome.result : ok('failed');
        },
      });
      draft.tools.push({
        name: 'visible',
        description: 'v',
        inputSchema: { type: 'object' },
        toolId: ctx.searchable.find((t) => t.name === 'visible')!.id,
      });
      draft.resolveHidden = (name) => ctx.searchable.find((t) => t.name === name)?.id;
      return draft;
    });
  },
};

describe('call scope', () => {
  it('reaches the executor directly, by hidden name and through a control tool', async () => {
    const { seen, tools } = recorder();
    const run = await createKernel({ plugins: [source('s', tools), relayMode] }).createRun();
    const exposure = await run.exposure('relay');
    const scope = { testCaller: 'session-1' };
    for (const name of ['visible', 'hidden', 'relay'])
      await expect(exposure.call(name, {}, { scope })).resolves.toMatchObject({ status: 'ok' });
    expect(seen).toEqual([scope, scope, scope]);
  });

  it('is absent when the caller gives none, and a control tool keeps the run it was given', async () => {
    const { seen, tools } = recorder();
    const run = await createKernel({ plugins: [source('s', tools), relayMode] }).createRun();
    const exposure = await run.exposure('relay');
    await exposure.call('relay', {});
    await run.call('hidden', {});
    expect(seen).toEqual([undefined, undefined]);
  });
});
