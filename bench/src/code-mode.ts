/**
 * Code mode: one `tool_search_code` run (one search, one call) through the
 * code exposure's handler, cold (a fresh sandbox child per run), with the
 * warm pool, and on the QuickJS backend, against a bare `node -e 0` spawn
 * measured in the same loop, so the ratio survives a noisy machine.
 */
import { spawn } from 'node:child_process';
import type { ToolSearchConfig } from '@tool-search/config';
import type { RunExposure } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { fakePluginCount } from './catalogs.js';
import { median, msSince, sleep } from './stats.js';

export const CODE_SNIPPET =
  'const hits = await openclaw.tools.search("read a text file from the workspace");\n' +
  'const r = await openclaw.tools.call(hits[0].id, { path: "notes.txt" });\n' +
  'return { id: hits[0].id, isError: r.isError ?? false };';

export interface CodeModeResult {
  readonly runs: number;
  readonly bareSpawnMs: number;
  /** The same spawn with this process's environment, for reference. */
  readonly bareSpawnInheritedEnvMs: number;
  readonly coldMs: number;
  readonly warmMs: number;
  /** Median of per-pair ratios (cold run / bare spawn measured next to it). */
  readonly coldToBare: number;
  readonly warmToBare: number;
  /** The same run on the QuickJS backend (a fresh runtime per run in a warm worker thread), in the same loop: after idle gaps. */
  readonly quickjsMs: number;
  /** QuickJS runs one right after another (a busy host's steady state): median of `quickjsBackToBack` runs. */
  readonly quickjsBackToBackMs: number;
  readonly quickjsToBare: number;
  /** Set when the QuickJS backend could not run here. */
  readonly quickjsSkipped?: string;
  /** What the snippet returned on the last run (proof it searched and called). */
  readonly sample: string;
  /** Set when code mode is not available here (no sandbox): nothing was measured. */
  readonly skipped?: string;
}

/**
 * `runs` interleaved rounds over a catalog of `catalogTotal` tools, then `quickjsBackToBack` QuickJS runs one right
 * after another.
 */
export async function measureCodeMode(
  runs: number,
  catalogTotal = 1000,
  quickjsBackToBack = 200,
): Promise<CodeModeResult> {
  const cold = await codeExposure(catalogTotal, 0);
  const warm = await codeExposure(catalogTotal, 1);
  const quick = await codeExposure(catalogTotal, 0, 'quickjs');
  const quickOk = quick.exposure.mode === 'code';
  try {
    if (cold.exposure.mode !== 'code') {
      const skipped = `code mode fell back to ${cold.exposure.mode}: ${cold.diagnostics}`;
      return {
        runs: 0,
        bareSpawnMs: 0,
        bareSpawnInheritedEnvMs: 0,
        coldMs: 0,
        warmMs: 0,
        coldToBare: 0,
        warmToBare: 0,
        quickjsMs: 0,
        quickjsBackToBackMs: 0,
        quickjsToBare: 0,
        sample: '',
        skipped,
      };
    }
    // One unmeasured round each: module caches, the sandbox support check, the index.
    await bareSpawn();
    await runSnippet(cold.exposure);
    await sleep(300);
    await runSnippet(warm.exposure);
    if (quickOk) for (let i = 0; i < 5; i++) await runSnippet(quick.exposure);
    const bare: number[] = [];
    const quickTimes: number[] = [];
    const inherited: number[] = [];
    const coldTimes: number[] = [];
    const warmTimes: number[] = [];
    let sample = '';
    for (let i = 0; i < runs; i++) {
      // Alternate which goes first, so neither always runs right after the warm run's sleep.
      const pair = await coldAndBare(cold.exposure, i);
      bare.push(pair.bareMs);
      coldTimes.push(pair.coldMs);
      inherited.push(await bareSpawn(true));
      if (quickOk) quickTimes.push((await runSnippet(quick.exposure)).ms);
      // "Warm" means a child is waiting: the pool refills after each run, so let that refill
      // finish here, before the next cold/bare pair, and not during it.
      await sleep(400);
      const w = await runSnippet(warm.exposure);
      warmTimes.push(w.ms);
      sample = w.text;
      await sleep(400);
    }
    const bareMs = median(bare);
    const coldMs = median(coldTimes);
    const warmMs = median(warmTimes);
    // Ratios of the pairs measured back to back, then their median: load changes between pairs cancel out.
    const coldToBare = median(coldTimes.map((t, k) => t / bare[k]!));
    const warmToBare = median(warmTimes.map((t, k) => t / bare[k]!));
    const backToBack: number[] = [];
    if (quickOk) for (let i = 0; i < quickjsBackToBack; i++) backToBack.push((await runSnippet(quick.exposure)).ms);
    const quickjs = quickOk
      ? {
          quickjsMs: median(quickTimes),
          quickjsBackToBackMs: median(backToBack),
          quickjsToBare: median(quickTimes.map((t, k) => t / bare[k]!)),
        }
      : {
          quickjsMs: 0,
          quickjsBackToBackMs: 0,
          quickjsToBare: 0,
          quickjsSkipped: `the quickjs backend did not start: ${quick.exposure.mode} mode; ${quick.diagnostics}`,
        };
    return {
      runs,
      bareSpawnMs: bareMs,
      bareSpawnInheritedEnvMs: median(inherited),
      coldMs,
      warmMs,
      coldToBare,
      warmToBare,
      ...quickjs,
      sample,
    };
  } finally {
    await cold.close();
    await warm.close();
    await quick.close();
  }
}

/**
 * The headline's cold ratio alone (headline-rows.ts): `runs` pairs of a cold `tool_search_code` run and a bare spawn,
 * the order alternating, after one unmeasured pair; the median of per-pair ratios and the two medians.
 */
export async function measureColdToBare(
  runs: number,
  catalogTotal = 1000,
): Promise<{ ratio: number; coldMs: number; bareMs: number } | { skipped: string }> {
  const cold = await codeExposure(catalogTotal, 0);
  try {
    if (cold.exposure.mode !== 'code')
      return { skipped: `code mode fell back to ${cold.exposure.mode}: ${cold.diagnostics}` };
    await bareSpawn();
    await runSnippet(cold.exposure);
    const bare: number[] = [];
    const coldTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      const pair = await coldAndBare(cold.exposure, i);
      bare.push(pair.bareMs);
      coldTimes.push(pair.coldMs);
    }
    return {
      ratio: median(coldTimes.map((t, k) => t / bare[k]!)),
      coldMs: median(coldTimes),
      bareMs: median(bare),
    };
  } finally {
    await cold.close();
  }
}

/** One cold run and one bare spawn back to back, the bare spawn first in even pairs. */
async function coldAndBare(exposure: RunExposure, i: number): Promise<{ coldMs: number; bareMs: number }> {
  if (i % 2 === 0) {
    const bareMs = await bareSpawn();
    return { bareMs, coldMs: (await runSnippet(exposure)).ms };
  }
  const coldMs = (await runSnippet(exposure)).ms;
  return { coldMs, bareMs: await bareSpawn() };
}

async function codeExposure(total: number, warmPool: number, sandbox: 'process' | 'quickjs' = 'process') {
  const config: ToolSearchConfig = {
    plugins: { 'fake-catalog': { tools: fakePluginCount(total), core: true } },
    tools: { toolSearch: { mode: 'code', warmPool, sandbox } },
  };
  const { kernel } = await createToolSearchKernel(config);
  const run = await kernel.createRun({ provider: 'openai', model: 'gpt-4.1' });
  const exposure = await run.exposure('code');
  const diagnostics = run.diagnostics.map((d) => d.message).join('; ');
  return { exposure, diagnostics, close: () => kernel.close() };
}

async function runSnippet(exposure: RunExposure): Promise<{ ms: number; text: string }> {
  const start = process.hrtime.bigint();
  const outcome = await exposure.call('tool_search_code', { code: CODE_SNIPPET });
  const ms = msSince(start);
  if (outcome.status !== 'ok') throw new Error(`tool_search_code failed: ${JSON.stringify(outcome)}`);
  const first = outcome.result.content[0];
  const text = first && first.type === 'text' ? first.text : '';
  if (outcome.result.isError) throw new Error(`tool_search_code returned an error: ${text}`);
  return { ms, text };
}

/**
 * `node -e 0` from spawn to exit. By default with the sandbox's spawn settings (empty environment, piped stdio),
 * so the ratio compares like with like: an inherited environment can cost more than the sandbox itself
 * (NODE_EXTRA_CA_CERTS alone loads a CA bundle at start-up).
 */
export function bareSpawn(inheritEnv = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-e', '0'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(inheritEnv ? {} : { env: {} }),
    });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('exit', () => resolve(msSince(start)));
  });
}
