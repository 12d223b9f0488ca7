import { expect, it } from 'vitest';
import { createKernel, ErrorCode } from '@tool-search/kernel';
import { checkSourceConformance } from '@tool-search/testing';
import { optionsSchema, unitsPlugin } from '../src/index.js';

it('converts lengths with the configured precision', async () => {
  const run = await createKernel({ plugins: [unitsPlugin({ precision: 1 })] }).createRun();
  const outcome = await run.call('convert_length', { value: 1, from: 'mi', to: 'km' });
  expect(outcome).toMatchObject({
    status: 'ok',
    toolId: 'plugin:units:convert_length',
    result: { content: [{ text: '1 mi = 1.6 km' }] },
  });
  await expect(run.call('convert_length', { value: 1, from: 'mi', to: 'parsec' })).rejects.toMatchObject({
    code: ErrorCode.TOOL_ARGUMENTS_INVALID,
  });
});

it('passes the source conformance checks', async () => {
  expect((await checkSourceConformance(unitsPlugin())).ok).toBe(true);
});

it('exports a closed options schema', () => {
  expect(optionsSchema.additionalProperties).toBe(false);
});
