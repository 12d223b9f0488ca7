/**
 * The catalog keeps a source's schema as it is only when nothing can change it later (deeply frozen plain data);
 * anything else is copied, so a source changing its definition after listing changes nothing in the run.
 */
import { describe, expect, it } from 'vitest';
import { createKernel, deepFreeze, ErrorCode, type JsonSchema } from '@tool-search/kernel';
import { source, tool } from './helpers.js';

const schema = (): JsonSchema => ({
  type: 'object',
  properties: { n: { type: 'integer', minimum: 1 } },
  required: ['n'],
});

describe('schemas in the catalog', () => {
  it('keeps a deeply frozen schema without copying it', async () => {
    const frozen = deepFreeze(schema());
    const run = await createKernel({ plugins: [source('s', [tool('t', { inputSchema: frozen })])] }).createRun();
    expect(run.tool('t')!.inputSchema).toBe(frozen);
    await expect(run.call('t', { n: 0 })).rejects.toMatchObject({ code: ErrorCode.TOOL_ARGUMENTS_INVALID });
  });

  it('copies a schema that is not frozen all the way down, and later changes to it reach no run', async () => {
    const partly = Object.freeze({ ...schema(), properties: { n: { type: 'integer', minimum: 1 } } }) as JsonSchema;
    const open = schema();
    const run = await createKernel({
      plugins: [source('s', [tool('partly', { inputSchema: partly }), tool('open', { inputSchema: open })])],
    }).createRun();
    expect(run.tool('partly')!.inputSchema).not.toBe(partly);
    expect(run.tool('open')!.inputSchema).not.toBe(open);
    (open.properties as Record<string, { minimum: number }>).n!.minimum = 100;
    (partly.properties as Record<string, { minimum: number }>).n!.minimum = 100;
    await expect(run.call('open', { n: 5 })).resolves.toMatchObject({ status: 'ok' });
    await expect(run.call('partly', { n: 5 })).resolves.toMatchObject({ status: 'ok' });
    expect(Object.isFrozen(run.tool('open')!.inputSchema)).toBe(true);
  });

  it('copies a frozen schema holding a class instance instead of plain data', async () => {
    class Odd {
      readonly type = 'integer';
    }
    const odd = deepFreeze({ type: 'object', properties: { n: new Odd() } }) as unknown as JsonSchema;
    const run = await createKernel({ plugins: [source('s', [tool('odd', { inputSchema: odd })])] }).createRun();
    expect(run.tool('odd')!.inputSchema).not.toBe(odd);
  });
});
