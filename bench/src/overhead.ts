/**
 * Kernel overhead per call: `run.call` through the preset (policy re-check,
 * beforeToolCall/afterToolCall hooks of every guard and telemetry, argument
 * validation) minus calling the same tool's executor directly.
 */
import type { ToolSearchConfig } from '@tool-search/config';
import { createToolSearchKernel } from '@tool-search/preset';
import { fakePluginCount } from './catalogs.js';
import { median, msSince } from './stats.js';

export interface OverheadResult {
  readonly calls: number;
  readonly tool: string;
  /** Median of one `run.call`, µs. */
  readonly callUs: number;
  /** Median of the bare executor work the call wraps (a fake tool building its text), µs. */
  readonly bareUs: number;
  /** callUs - bareUs. */
  readonly overheadUs: number;
  readonly statuses: Readonly<Record<string, number>>;
}

const TOOL = 'core:core:read';

export async function measureOverhead(calls: number, catalogTotal = 1000): Promise<OverheadResult> {
  const config: ToolSearchConfig = {
    plugins: { 'fake-catalog': { tools: fakePluginCount(catalogTotal), core: true } },
  };
  const { kernel } = await createToolSearchKernel(config);
  try {
    const run = await kernel.createRun({ provider: 'openai', model: 'gpt-4.1' });
    const statuses: Record<string, number> = {};
    const warm = Math.min(200, calls);
    const samples: number[] = [];
    for (let i = 0; i < calls + warm; i++) {
      // Distinct arguments, as a real session has (and no loop detector sees a repeat).
      const args = { path: `notes-${i}.txt`, offset: 1 + (i % 50) };
      const start = process.hrtime.bigint();
      const outcome = await run.call(TOOL, args, { origin: 'api' });
      const us = msSince(start) * 1000;
      if (i >= warm) {
        samples.push(us);
        statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
      }
    }
    const bare: number[] = [];
    for (let i = 0; i < calls; i++) {
      const args = { path: `notes-${i}.txt`, offset: 1 + (i % 50) };
      const start = process.hrtime.bigint();
      await Promise.resolve({ content: [{ type: 'text', text: `FAKE_TOOL_OK read ${JSON.stringify({ ...args })}` }] });
      bare.push(msSince(start) * 1000);
    }
    await run.close();
    const callUs = median(samples);
    const bareUs = median(bare);
    return { calls: samples.length, tool: TOOL, callUs, bareUs, overheadUs: callUs - bareUs, statuses };
  } finally {
    await kernel.close();
  }
}
