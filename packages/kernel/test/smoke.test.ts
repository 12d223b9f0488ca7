import { describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';

describe('smoke', () => {
  it('resolves the kernel from source', async () => {
    const run = await createKernel().createRun();
    expect(run.catalog).toEqual([]);
  });
});
