/** A kernel holding one plugin, ready to run: the smallest harness for a plugin author's test. */
import { createKernel, type Kernel, type KernelPlugin, type RunRequest } from '@tool-search/kernel';
import type { Run } from '@tool-search/kernel';

export interface TestHarness {
  readonly kernel: Kernel;
  readonly run: Run;
  close(): Promise<void>;
}

export async function createTestHarness(
  plugin: KernelPlugin,
  options: { with?: readonly KernelPlugin[]; request?: RunRequest } = {},
): Promise<TestHarness> {
  const kernel = createKernel({ plugins: [...(options.with ?? []), plugin] });
  const run = await kernel.createRun(options.request);
  return {
    kernel,
    run,
    close: async () => {
      await run.close();
      await kernel.close();
    },
  };
}
