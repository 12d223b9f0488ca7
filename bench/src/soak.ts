/**
 * Soak: does memory stay flat under long use? Three loops, each sampling the
 * memory this process holds (V8 heap plus `external` and `arrayBuffers`:
 * typed arrays and buffers count too) after a full GC, at the end of the
 * warm-up quarter and at the end. "Growth" is what the remaining three
 * quarters added; a leak shows as growth proportional to the loop's length.
 * The warm-up is long enough for bounded stores to fill (telemetry keeps
 * 5,000 entries a session: a code run adds three).
 */
import type { ToolSearchConfig, ToolSearchOptions } from '@tool-search/config';
import { createToolSearchKernel } from '@tool-search/preset';
import { collectGarbage, round } from './stats.js';

export interface SoakRow {
  readonly loop: 'calls' | 'sessions' | 'code runs' | 'code runs (process)';
  readonly iterations: number;
  /** MB held after the warm-up quarter. */
  readonly warmMb: number;
  /** MB held at the end. */
  readonly endMb: number;
  /** Bytes added per iteration after the warm-up (endMb - warmMb over the remaining iterations). */
  readonly bytesPerIteration: number;
  readonly failures: number;
  readonly seconds: number;
}

export interface SoakPlan {
  readonly calls: number;
  readonly sessions: number;
  /** Code runs on the QuickJS backend (about a millisecond each). */
  readonly codeRuns: number;
  /** Code runs on the process backend (a child each, so fewer). */
  readonly processCodeRuns: number;
}

export const SOAK_FULL: SoakPlan = { calls: 100_000, sessions: 20_000, codeRuns: 10_000, processCodeRuns: 1_000 };
export const SOAK_QUICK: SoakPlan = { calls: 2_000, sessions: 500, codeRuns: 20, processCodeRuns: 5 };

/** A bytes-per-iteration figure under this reads as flat: a per-iteration leak of any real object is larger. */
export const FLAT_BYTES_PER_ITERATION = 64;

const CATALOG: ToolSearchConfig = { plugins: { 'fake-catalog': { tools: 200, core: true } } };

// Works with either shape of `openclaw.tools.search` (an array of hits, or `{ hits }`).
const CODE = [
  'const found = await openclaw.tools.search("read a text file from the workspace");',
  'const hits = Array.isArray(found) ? found : found.hits;',
  'const r = await openclaw.tools.call(hits[0].id, { path: "notes.txt" });',
  'return r.status ?? "ok";',
].join('\n');

export async function measureSoak(plan: SoakPlan): Promise<SoakRow[]> {
  return [
    await soakCalls(plan.calls),
    await soakSessions(plan.sessions),
    await soakCodeRuns('code runs', plan.codeRuns, { sandbox: 'quickjs' }),
    await soakCodeRuns('code runs (process)', plan.processCodeRuns, { sandbox: 'process' }),
  ];
}

async function soakCalls(iterations: number): Promise<SoakRow> {
  const { kernel } = await createToolSearchKernel(CATALOG);
  const run = await kernel.createRun({ sessionId: 'soak-calls' });
  try {
    return await loop('calls', iterations, async (i) => {
      // Distinct arguments, so no loop detector sees a repeat.
      const outcome = await run.call('core:core:read', { path: `notes-${i}.txt` });
      return outcome.status === 'ok';
    });
  } finally {
    await run.close();
    await kernel.close();
  }
}

async function soakSessions(iterations: number): Promise<SoakRow> {
  const { kernel } = await createToolSearchKernel(CATALOG);
  try {
    return await loop('sessions', iterations, async (i) => {
      const run = await kernel.createRun({ sessionId: `soak-session-${i}` });
      try {
        return (await run.call('core:core:read', { path: 'notes.txt' })).status === 'ok';
      } finally {
        await run.close();
      }
    });
  } finally {
    await kernel.close();
  }
}

async function soakCodeRuns(
  loopName: SoakRow['loop'],
  iterations: number,
  codeSearch: ToolSearchOptions,
): Promise<SoakRow> {
  const config: ToolSearchConfig = { ...CATALOG, tools: { toolSearch: { mode: 'code', warmPool: 2, ...codeSearch } } };
  const { kernel } = await createToolSearchKernel(config);
  const run = await kernel.createRun({ sessionId: 'soak-code' });
  try {
    const exposure = await run.exposure('code');
    if (exposure.mode !== 'code') throw new Error(`code mode is not available here (fell back to ${exposure.mode})`);
    return await loop(loopName, iterations, async () => {
      const outcome = await exposure.call('tool_search_code', { code: CODE });
      return outcome.status === 'ok' && !outcome.result.isError;
    });
  } finally {
    await run.close();
    await kernel.close();
  }
}

async function loop(
  name: SoakRow['loop'],
  iterations: number,
  step: (i: number) => Promise<boolean>,
): Promise<SoakRow> {
  const started = process.hrtime.bigint();
  const warmUp = Math.max(1, Math.floor(iterations / 4));
  let failures = 0;
  let warmBytes = 0;
  for (let i = 0; i < iterations; i++) {
    if (!(await step(i).catch(() => false))) failures++;
    if (i + 1 === warmUp) warmBytes = heldBytes();
  }
  const endBytes = heldBytes();
  return {
    loop: name,
    iterations,
    warmMb: round(warmBytes / 2 ** 20, 1),
    endMb: round(endBytes / 2 ** 20, 1),
    bytesPerIteration: round((endBytes - warmBytes) / Math.max(1, iterations - warmUp), 1),
    failures,
    seconds: round(Number(process.hrtime.bigint() - started) / 1e9, 1),
  };
}

function heldBytes(): number {
  collectGarbage();
  const { heapUsed, external } = process.memoryUsage();
  // `external` already includes `arrayBuffers` (typed arrays and buffers).
  return heapUsed + external;
}

/** The BENCHMARKS.md section (numbered by the report). */
export function soakSection(rows: readonly SoakRow[], heading: string): string[] {
  return [
    heading,
    '',
    'Memory held (V8 heap + `external`, which includes typed arrays and buffers) after a full GC, at the end of the',
    `warm-up quarter and at the end of each loop, on a 225-tool fake catalog through the preset. Growth under ${FLAT_BYTES_PER_ITERATION} bytes`,
    'per iteration reads as flat. Calls: one run, distinct arguments. Sessions: a new run with a new session id each time.',
    'Code runs: `tool_search_code` (one search, one call) on the QuickJS backend, and on the process backend with a warm pool of 2',
    '(for reference: 1,000 runs add 3,000 session-log entries, still filling the 5,000-entry store, so that row is not a leak test).',
    '',
    '| loop | iterations | after warm-up | at the end | bytes per iteration | failures | time |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.loop} | ${r.iterations.toLocaleString('en-US')} | ${r.warmMb} MB | ${r.endMb} MB | **${r.bytesPerIteration}** | ${r.failures} | ${r.seconds} s |`,
    ),
    '',
  ];
}

export function soakTarget(all: readonly SoakRow[]): { target: string; value: string; met: boolean } {
  // The process backend's 1,000 runs are for reference: too few to fill the bounded stores past the warm-up.
  const rows = all.filter((r) => r.loop !== 'code runs (process)');
  const full = rows.every((r) => r.iterations >= SOAK_FULL[planKey(r.loop)]);
  return {
    target: `flat memory over ≥ 100,000 calls, ≥ 20,000 sessions, ≥ 10,000 code runs (< ${FLAT_BYTES_PER_ITERATION} B per iteration)`,
    value: rows.map((r) => `${r.loop} ${r.bytesPerIteration} B × ${r.iterations.toLocaleString('en-US')}`).join(', '),
    met: full && rows.every((r) => r.bytesPerIteration < FLAT_BYTES_PER_ITERATION && r.failures === 0),
  };
}

function planKey(loop: SoakRow['loop']): keyof SoakPlan {
  return loop === 'calls'
    ? 'calls'
    : loop === 'sessions'
      ? 'sessions'
      : loop === 'code runs'
        ? 'codeRuns'
        : 'processCodeRuns';
}
