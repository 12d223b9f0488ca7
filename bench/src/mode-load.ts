/**
 * Exposure modes under load (issue 30): the same turns — find `fake_plugin_tool_0005` and call it — from N
 * concurrent sessions through one in-process gateway over a 1,000-tool catalog, in `direct`, `tools` and `code`
 * mode, code mode on each sandbox: a process per run (the default), a warm process pool sized to the sessions,
 * and the QuickJS worker backend (with the default `maxConcurrent` of 4, and sized to the sessions). Turns/s, p99
 * per turn and CPU per turn (every thread of this process: the gateway, the provider, QuickJS workers; not the
 * Node children); the provider is the scripted mock in this process. The setups run in interleaved rounds (round 1:
 * every setup, round 2: every setup, …) so a change in the machine's load spreads over all of them.
 */
import os from 'node:os';
import OpenAI from 'openai';
import type { ToolSearchConfig } from '@tool-search/config';
import { openaiUpstream, startGatewayServer } from '@tool-search/gateway';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { createToolSearchKernel } from '@tool-search/preset';
import { driveSessions, turnStats, type LoadSample } from './load-driver.js';
import { round } from './stats.js';

export interface ModeLoadPlan {
  readonly tools: number;
  readonly sessions: number;
  readonly turns: number;
  /** Interleaved rounds; each setup's row sums its rounds. */
  readonly rounds: number;
}

export const MODE_LOAD_FULL: ModeLoadPlan = { tools: 1000, sessions: 20, turns: 5, rounds: 3 };
export const MODE_LOAD_QUICK: ModeLoadPlan = { tools: 36, sessions: 2, turns: 2, rounds: 1 };

export interface ModeLoadRow {
  readonly setup: string;
  readonly mode: string;
  readonly turns: number;
  readonly errors: number;
  readonly turnsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** CPU time of this process (all its threads) per turn. */
  readonly cpuMsPerTurn: number;
  /** Why the failed turns failed: an error code from the answer (CODE_TIMEOUT, SANDBOX_FAILED, …) or the client's error, with counts. */
  readonly failures: Readonly<Record<string, number>>;
}

export interface ModeLoadResult {
  readonly plan: ModeLoadPlan;
  readonly rows: readonly ModeLoadRow[];
  /** One-minute load average before and after (the machine is shared). */
  readonly load: { readonly before: number; readonly after: number };
}

export interface ModeLoadSetup {
  readonly setup: string;
  readonly mode: 'direct' | 'tools' | 'code';
  readonly toolSearch?: Record<string, unknown>;
}

const TARGET = 'fake_plugin_tool_0005';

export async function measureModeLoad(
  plan: ModeLoadPlan,
  only?: (setup: ModeLoadSetup) => boolean,
): Promise<ModeLoadResult> {
  const all: ModeLoadSetup[] = [
    { setup: 'direct', mode: 'direct' },
    { setup: 'tools', mode: 'tools' },
    { setup: 'code, process per run', mode: 'code', toolSearch: { sandbox: 'process' } },
    {
      setup: `code, warm pool of ${plan.sessions}`,
      mode: 'code',
      toolSearch: { sandbox: 'process', warmPool: plan.sessions, maxConcurrent: plan.sessions },
    },
    { setup: 'code, QuickJS worker, maxConcurrent 4', mode: 'code', toolSearch: { sandbox: 'quickjs' } },
    { setup: 'code, QuickJS worker', mode: 'code', toolSearch: { sandbox: 'quickjs', maxConcurrent: plan.sessions } },
  ];
  const setups = only ? all.filter(only) : all;
  const before = os.loadavg()[0]!;
  const provider = await startMockOpenAI({ record: { maxRequests: 0 } });
  const samples = setups.map((): LoadSample[] => []);
  try {
    for (let round = 0; round < plan.rounds; round++) {
      for (const [i, setup] of setups.entries()) samples[i]!.push(await measureSetup(setup, plan, provider.url));
    }
  } finally {
    await provider.close();
  }
  const rows = setups.map((setup, i) => toRow(setup, samples[i]!));
  return { plan, rows, load: { before: round(before, 1), after: round(os.loadavg()[0]!, 1) } };
}

function toRow(setup: ModeLoadSetup, samples: readonly LoadSample[]): ModeLoadRow {
  const stats = turnStats(samples);
  const cpuMs = samples.reduce((total, sample) => total + sample.cpuMs, 0);
  return {
    setup: setup.setup,
    mode: setup.mode,
    ...stats,
    cpuMsPerTurn: round(cpuMs / Math.max(1, stats.turns), 1),
    failures: countBy(samples.flatMap((sample) => sample.failures)),
  };
}

async function measureSetup(setup: ModeLoadSetup, plan: ModeLoadPlan, providerUrl: string): Promise<LoadSample> {
  const config: ToolSearchConfig = {
    plugins: { 'fake-catalog': { tools: plan.tools, core: true } },
    tools: {
      toolSearch:
        setup.mode === 'direct'
          ? false
          : ({ mode: setup.mode, ...setup.toolSearch } as ToolSearchConfig['tools'] extends { toolSearch?: infer T }
              ? Exclude<T, boolean | undefined>
              : never),
    },
  } as ToolSearchConfig;
  const { kernel } = await createToolSearchKernel(config);
  const gateway = await startGatewayServer({
    kernel,
    upstream: openaiUpstream(new OpenAI({ baseURL: providerUrl, apiKey: 'mock', maxRetries: 0 }), 'mock-model'),
    mode: setup.mode,
    log: () => {},
    countTokens: false,
  });
  try {
    const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0, timeout: 60_000 });
    await turn(client, 'warm', setup.mode);
    return await driveSessions(plan, (session) => turn(client, `load-${session}`, setup.mode));
  } finally {
    await gateway.close();
    await kernel.close();
  }
}

/** One turn; undefined when the answer quotes the tool's result and the gateway ran the mode it was given, else why not. */
async function turn(client: OpenAI, session: string, mode: string): Promise<string | undefined> {
  const completion = await client.chat.completions.create(
    { model: 'mock-model', messages: [{ role: 'user', content: `tool search qa check target=${TARGET}` }] },
    { headers: { 'x-session-id': session } },
  );
  const field = (completion as unknown as { tool_search?: { mode?: string } }).tool_search;
  const content = completion.choices[0]?.message.content ?? '';
  if (field?.mode !== mode) return `mode ${String(field?.mode)}`;
  if (content.includes('FAKE_TOOL_OK')) return undefined;
  return /"code":"([A-Z_]+)"/.exec(content)?.[1] ?? 'no answer';
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/** Where a turn's time goes (profiled with --cpu-prof and process.cpuUsage, issue 30); printed under the table. */
const MODE_LOAD_NOTES = [
  "Where the time goes: every setup is bound by the gateway's main thread (event-loop utilization 1.0 in all of them), so",
  'turns/s follow CPU per turn, and on this shared machine the share of the cores the process gets: compare CPU per turn',
  'first. A tools turn is three provider requests, a code turn two plus the sandbox; what both pay per turn is building',
  "the run over 1,000 tools and the ledger's direct-mode counterpart (about 10 ms of JSON for the direct tools). The",
  'process sandbox pays a Node start per run (a warm pool of children is only moved off the clock, not avoided). QuickJS',
  'started a worker every ten runs (at most 8 idle workers kept; one that took over 100 ms to say its run was freed was',
  "terminated, and its late answer could put a dying worker back in the idle set: 'the interpreter thread exited');",
  'now the idle set is sized to `maxConcurrent`, the grace is 1 s and the WebAssembly module is compiled once per process.',
  '',
];

/** The fastest code setup and its turns/s over tools mode's (the goal: ≥ 0.8×). */
export function codeToolsRatio(
  r: ModeLoadResult,
): { readonly best: ModeLoadRow; readonly ratio: number; readonly cpuRatio: number } | undefined {
  const tools = r.rows.find((row) => row.setup === 'tools');
  const best = [...r.rows].filter((row) => row.mode === 'code').sort((a, b) => b.turnsPerSecond - a.turnsPerSecond)[0];
  if (!tools || !best) return undefined;
  return {
    best,
    ratio: round(best.turnsPerSecond / tools.turnsPerSecond, 2),
    cpuRatio: round(best.cpuMsPerTurn / tools.cpuMsPerTurn, 2),
  };
}

export function modeLoadSection(r: ModeLoadResult, heading: string): string[] {
  const result = codeToolsRatio(r);
  return [
    heading,
    '',
    `${r.plan.sessions} concurrent sessions × ${r.plan.turns} turns each over ${r.plan.tools} fake tools (every turn finds and calls one tool, then answers),`,
    `one in-process gateway, the scripted provider in the same process, all on the same cores; ${r.plan.rounds} interleaved round(s) per setup, summed`,
    `(load average ${r.load.before} before, ${r.load.after} after). CPU per turn counts every thread of the process (QuickJS workers`,
    'included, Node children not). Alone: `node --expose-gc bench/dist/mode-load-run.js` (rewrites this section).',
    '',
    '| setup | turns | errors | turns/s | p50 per turn | p99 per turn | CPU per turn |',
    '|---|---|---|---|---|---|---|',
    ...r.rows.map(
      (row) =>
        `| ${row.setup} | ${row.turns} | ${errorsCell(row)} | ${row.turnsPerSecond} | ${row.p50Ms} ms | ${row.p99Ms} ms | ${row.cpuMsPerTurn} ms |`,
    ),
    '',
    ...(result
      ? [
          `Fastest code setup (${result.best.setup}) / tools mode: **${result.ratio}×** turns/s (goal ≥ 0.8×), ${result.cpuRatio}× the CPU per turn.`,
          '',
        ]
      : []),
    ...MODE_LOAD_NOTES,
  ];
}

function errorsCell(row: ModeLoadRow): string {
  const kinds = Object.entries(row.failures).map(([kind, count]) => `${kind} ${count}`);
  return kinds.length ? `${row.errors} (${kinds.join(', ')})` : String(row.errors);
}
