/**
 * Measuring the headline rows (headline.ts): groups of rows, each group one measurement that yields one ratio per row
 * per run. `measureHeadline` interleaves them: run 1 measures every group, then run 2, … so a change in the shared
 * machine's load spreads over every row instead of landing on one. A new headline row is a new group here.
 */
import os from 'node:os';
import { measureCliStartup } from './cli-startup.js';
import { bareSpawn, measureColdToBare } from './code-mode.js';
import {
  detailSpread,
  spreadOf,
  DEFAULT_TOLERANCE,
  type HeadlineFile,
  type HeadlineRow,
  type Spread,
} from './headline.js';
import { machineInfo } from './machine.js';
import { codeToolsRatio, measureModeLoad, MODE_LOAD_FULL, MODE_LOAD_QUICK } from './mode-load.js';
import {
  gatewayUnavailable,
  measureGatewayRun,
  measurePerCall,
  REPLICA_LOAD_FULL,
  REPLICA_LOAD_QUICK,
  redisUnavailable,
} from './replica-load.js';
import { median, msSince, round } from './stats.js';
import { errorMessage } from '@tool-search/kernel';
import { startRedisServer } from '@tool-search/testing';

/** One run of a group: the ratio of each of its rows and the absolute figures behind it. */
type RunValues = Readonly<Record<string, { readonly ratio: number; readonly detail: Record<string, number> }>>;

export interface HeadlineGroup {
  readonly id: string;
  readonly rows: readonly { readonly id: string; readonly title: string; readonly tolerance?: number }[];
  /** Why the group cannot be measured here (a missing program or build), or undefined. */
  unavailable?(): string | undefined;
  run(quick: boolean): Promise<RunValues>;
}

const CODE_COLD: HeadlineGroup = {
  id: 'code-mode',
  rows: [{ id: 'code-cold', title: 'code mode cold (`tool_search_code`, a fresh sandbox child) / bare `node -e 0`' }],
  async run(quick) {
    const r = await measureColdToBare(quick ? 1 : 15, quick ? 100 : 1000);
    if ('skipped' in r) throw new Error(r.skipped);
    return { 'code-cold': { ratio: r.ratio, detail: { 'cold ms': r.coldMs, 'node -e 0 ms': r.bareMs } } };
  },
};

const CLI: HeadlineGroup = {
  id: 'cli',
  rows: [
    { id: 'cli-help', title: '`tool-search --help` / bare `node -e 0`' },
    { id: 'cli-tools-list', title: '`tool-search tools list` (demo catalog) / bare `node -e 0`' },
  ],
  async run(quick) {
    const r = await measureCliStartup(quick ? 1 : 7, { warmUp: !quick, commands: [['--help'], ['tools', 'list']] });
    if (r.skipped) throw new Error(r.skipped);
    const [help, list] = r.rows;
    const values = (row: typeof help) => ({
      ratio: row!.ratioToNode,
      detail: { ms: row!.medianMs, 'node -e 0 ms': r.nodeMs },
    });
    return { 'cli-help': values(help), 'cli-tools-list': values(list) };
  },
};

const MODES: HeadlineGroup = {
  id: 'mode-load',
  rows: [
    {
      id: 'code-vs-tools',
      title:
        'code mode (QuickJS worker) / tools mode, turns/s, 20 sessions × 2 turns × 3 alternating rounds, 1,000 tools, in-process gateway',
    },
  ],
  async run(quick) {
    // Three short rounds, alternating tools and code, rather than one long one each: a burst of load elsewhere on the
    // shared machine then lands on both setups (one round each swung the ratio from 0.88 to 1.66 within a headline).
    const plan = quick ? { ...MODE_LOAD_QUICK, rounds: 1 } : { ...MODE_LOAD_FULL, turns: 2, rounds: 3 };
    const r = await measureModeLoad(plan, (s) => s.setup === 'tools' || s.setup === 'code, QuickJS worker');
    const result = codeToolsRatio(r);
    const tools = r.rows.find((row) => row.setup === 'tools');
    if (!result || !tools) throw new Error('mode load measured no tools or code row');
    const errors = r.rows.reduce((total, row) => total + row.errors, 0);
    return {
      'code-vs-tools': {
        ratio: result.ratio,
        detail: {
          'code turns/s': result.best.turnsPerSecond,
          'tools turns/s': tools.turnsPerSecond,
          'code p99 ms': result.best.p99Ms,
          errors,
        },
      },
    };
  },
};

const REDIS_PER_CALL: HeadlineGroup = {
  id: 'redis-per-call',
  rows: [
    {
      id: 'redis-per-call',
      title: 'Redis / in-process state, cost per tool call (`run.call` through the preset, loop detection on)',
    },
  ],
  unavailable: redisUnavailable,
  async run(quick) {
    const redis = await startRedisServer();
    try {
      const rows = await measurePerCall(redis, (quick ? REPLICA_LOAD_QUICK : REPLICA_LOAD_FULL).calls);
      const memory = rows.find((row) => row.state === 'memory')!;
      const store = rows.find((row) => row.state === 'redis')!;
      return {
        'redis-per-call': {
          ratio: store.callUs / memory.callUs,
          detail: {
            'in-process µs': memory.callUs,
            'Redis µs': store.callUs,
            'in-process p99 µs': memory.p99Us,
            'Redis p99 µs': store.p99Us,
          },
        },
      };
    } finally {
      await redis.stop();
    }
  },
};

const GATEWAY: HeadlineGroup = {
  id: 'gateway',
  rows: [
    {
      id: 'gateway-turns-per-node',
      title:
        '`tool-search gateway`, 1 replica, in-process state: turns/s × bare `node -e 0` time (turns per node start), 20 sessions × 5 turns × 3 blocks',
    },
    { id: 'gateway-redis-vs-memory', title: '1 gateway replica with Redis state / with in-process state, turns/s' },
    {
      id: 'gateway-two-vs-one',
      title: '2 gateway replicas with Redis, round-robin / 1 replica with in-process state, turns/s (same 2 cores)',
    },
  ],
  unavailable: gatewayUnavailable,
  async run(quick) {
    const redis = await startRedisServer();
    try {
      const r = await measureGatewayRun(redis, quick ? REPLICA_LOAD_QUICK : REPLICA_LOAD_FULL);
      const [memory, oneRedis, two] = r.setups;
      const setupDetail = (label: string, row: typeof memory) => ({
        [`${label} turns/s`]: row!.turnsPerSecond,
        [`${label} p50 ms`]: row!.p50Ms,
        [`${label} p99 ms`]: row!.p99Ms,
        [`${label} errors`]: row!.errors,
        [`${label} gateway CPU ms/turn`]: row!.gatewayCpuMsPerTurn,
      });
      return {
        'gateway-turns-per-node': {
          ratio: (memory!.turnsPerSecond * r.nodeMs) / 1000,
          detail: { ...setupDetail('in-process', memory), 'node -e 0 ms': r.nodeMs },
        },
        'gateway-redis-vs-memory': {
          ratio: oneRedis!.turnsPerSecond / memory!.turnsPerSecond,
          detail: { ...setupDetail('Redis', oneRedis), 'in-process turns/s': memory!.turnsPerSecond },
        },
        'gateway-two-vs-one': {
          ratio: two!.turnsPerSecond / memory!.turnsPerSecond,
          detail: { ...setupDetail('2 replicas', two), 'in-process turns/s': memory!.turnsPerSecond },
        },
      };
    } finally {
      await redis.stop();
    }
  },
};

/** Every headline group, in the order each run measures them. */
export const HEADLINE_GROUPS: readonly HeadlineGroup[] = [CODE_COLD, CLI, MODES, REDIS_PER_CALL, GATEWAY];

export interface HeadlineOptions {
  /** Interleaved runs (≥ 3 for a stated figure). */
  readonly runs: number;
  /** The CI smoke's small plans. */
  readonly quick?: boolean;
  readonly command: string;
  /** Default widening of the band for `--check`. */
  readonly tolerance?: number;
  readonly groups?: readonly HeadlineGroup[];
  readonly log?: (line: string) => void;
}

export async function measureHeadline(options: HeadlineOptions): Promise<HeadlineFile> {
  const started = process.hrtime.bigint();
  const log = options.log ?? (() => {});
  const machine = machineInfo();
  const skipped: Record<string, string> = {};
  const groups = (options.groups ?? HEADLINE_GROUPS).filter((group) => {
    const why = group.unavailable?.();
    if (why) for (const row of group.rows) skipped[row.id] = why;
    return !why;
  });
  const perRun: { load: number; values: RunValues }[][] = groups.map(() => []);
  const failed = new Set<number>();
  const nodeE0: number[] = [];
  for (let run = 1; run <= options.runs; run++) {
    const spawns: number[] = [];
    for (let i = 0; i < 5; i++) spawns.push(await bareSpawn());
    nodeE0.push(median(spawns));
    for (const [g, group] of groups.entries()) {
      if (failed.has(g)) continue;
      const load = round(os.loadavg()[0]!, 2);
      log(`headline run ${run}/${options.runs}: ${group.id} (load ${load})`);
      try {
        perRun[g]!.push({ load, values: await group.run(options.quick ?? false) });
      } catch (error) {
        // A group that cannot run (code mode without a sandbox, say) leaves its rows unstated, saying why; the others go on.
        failed.add(g);
        for (const row of group.rows) skipped[row.id] = `failed in run ${run}: ${errorMessage(error)}`;
      }
    }
  }
  const rows = groups.flatMap((group, g) => (failed.has(g) ? [] : group.rows.map((row) => toRow(row, perRun[g]!))));
  return {
    date: machine.date,
    command: options.command,
    runs: options.runs,
    seconds: round(msSince(started) / 1000, 0),
    machine: {
      cpu: machine.cpu,
      cores: machine.cores,
      memoryGiB: machine.memoryGiB,
      platform: machine.platform,
      node: machine.node,
      nodeE0Ms: detailSpread(nodeE0),
      loadBefore: machine.loadAverage,
      loadAfter: os.loadavg().map((load) => round(load, 2)),
    },
    tolerance: options.tolerance ?? DEFAULT_TOLERANCE,
    rows,
    ...(Object.keys(skipped).length ? { skipped } : {}),
  };
}

function toRow(row: HeadlineGroup['rows'][number], runs: readonly { load: number; values: RunValues }[]): HeadlineRow {
  const samples = runs.map((run) => round(run.values[row.id]!.ratio, 3));
  const names = Object.keys(runs[0]?.values[row.id]?.detail ?? {});
  const detail: Record<string, Spread> = {};
  for (const name of names) detail[name] = detailSpread(runs.map((run) => run.values[row.id]!.detail[name]!));
  return {
    id: row.id,
    title: row.title,
    ratio: spreadOf(samples),
    samples,
    load: runs.map((run) => run.load),
    detail,
    ...(row.tolerance !== undefined ? { tolerance: row.tolerance } : {}),
  };
}
