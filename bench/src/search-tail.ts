/**
 * The tail of search latency (issue 47): p50 / p99 / p99.9 of single queries at 1,000 and 10,000 tools, the first
 * query after each build included, with the GC time the queries caused beside them. The median says little about
 * pauses; a p99 against a 0.3 ms median is garbage collection, allocation and lazy work, so this counts them too.
 *
 * Catalog: the real MCP catalog in shared/data (3,675 tools). 1,000 = every tool the 200 labeled queries name plus
 * the first others in catalog order; 10,000 = the catalog, then copies of it under renamed servers
 * (`<server>~2`, `<server>~3`), cut at 10,000. `--catalog=fake` uses the fake catalog of latency.ts instead.
 * Queries: the 200 labeled task queries of mcp-catalog-queries.json, round after round.
 *
 * Per build: fresh descriptor objects (nothing cached from an earlier build; `--same-descriptors`: the kernel's
 * deep-frozen objects again, one tool left out, i.e. a catalog change), the index prepared as a deployment does
 * (`prepareIndex`, built off the request path), then the first query timed, then `--rounds` rounds of all queries. GC: a PerformanceObserver('gc') over the whole run; pauses that start inside the query loops are
 * summed per 1,000 queries. "p99 no-GC" leaves out queries that a GC pause overlapped (what is left is the
 * scheduler and the work itself); "on CPU" takes each query's run-queue wait (/proc/thread-self/schedstat) off its
 * time, which separates the scheduler's share of the tail from the search's on a loaded machine.
 * `--hogs=N` starts N CPU-bound `yes > /dev/null` processes beside it and ends them.
 *
 *   npx tsc -b bench/tsconfig.build.json && node --expose-gc bench/dist/search-tail.js --hogs=2
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, readSync } from 'node:fs';
import os from 'node:os';
import { constants, type PerformanceEntry, PerformanceObserver, performance } from 'node:perf_hooks';
import { deepFreeze, type ToolDescriptor } from '@tool-search/kernel';
import { isIndexBuilt, loadSnapshot, prepareIndex, type ToolIndex } from '@tool-search/search';
import { defaultDataDir, fakeDescriptors, hasData, LATENCY_QUERIES, sampleSnapshot } from './catalogs.js';
import { collectGarbage, msSince, percentile, round, sleep } from './stats.js';

interface Options {
  readonly sizes: readonly number[];
  readonly builds: number;
  readonly rounds: number;
  readonly hogs: number;
  readonly catalog: 'real' | 'fake';
  /** New descriptor objects per build (default), or the same frozen ones minus one tool (`--same-descriptors`). */
  readonly fresh: boolean;
  readonly dataDir: string;
}

export interface TailRow {
  readonly catalog: string;
  readonly tools: number;
  readonly builds: number;
  readonly queries: number;
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
  /** The first query after each build: median and worst. */
  readonly firstMedian: number;
  readonly firstMax: number;
  /** p99 of the queries no GC pause overlapped. */
  readonly p99NoGc: number;
  /** p99 and p99.9 on CPU: each query's time minus its run-queue wait (the scheduler's part of the tail). */
  readonly cpuP99: number;
  readonly cpuP999: number;
  /** Share of the queries that waited for a core at all. */
  readonly preempted: number;
  readonly gcMsPer1000: number;
  readonly gcCountPer1000: number;
  /** Of which major (mark-compact) collections; the rest are scavenges, incremental steps and weak callbacks. */
  readonly majorGcPer1000: number;
  readonly gcMaxPauseMs: number;
  readonly loadAverage: readonly number[];
}

/**
 * Per-query timings in arrays made before the loop: the bench allocates next to nothing per query (two BigInts), so
 * the GC column counts the search's garbage, not the bench's.
 */
interface Samples {
  /** `performance.now()` at the start, for overlap with GC pauses. */
  readonly at: Float64Array;
  readonly ms: Float64Array;
  /** `ms` minus the time the thread waited for a core (a CPU-bound neighbour had it). */
  readonly cpuMs: Float64Array;
  count: number;
}

function samples(capacity: number): Samples {
  return {
    at: new Float64Array(capacity),
    ms: new Float64Array(capacity),
    cpuMs: new Float64Array(capacity),
    count: 0,
  };
}

/** GC pauses as they come (the observer delivers after the synchronous loops; `flush` waits for it). */
function gcRecorder(): { readonly pauses: PerformanceEntry[]; flush(): Promise<void>; stop(): void } {
  const pauses: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    pauses,
    flush: () => sleep(50),
    stop: () => observer.disconnect(),
  };
}

function gcKind(entry: PerformanceEntry): number | undefined {
  return (entry as PerformanceEntry & { readonly detail?: { readonly kind?: number } }).detail?.kind;
}

function realCatalog(dataDir: string, total: number): { tools: ToolDescriptor[]; queries: string[] } {
  const snapshot = loadSnapshot(dataDir, 'mcp-catalog');
  const queries = snapshot.queries.map((query) => query.query);
  if (total <= snapshot.descriptors.length) {
    const sample = sampleSnapshot(snapshot, { queries: snapshot.queries.length, tools: total });
    return { tools: [...sample.descriptors], queries };
  }
  const tools: ToolDescriptor[] = [...snapshot.descriptors];
  for (let copy = 2; tools.length < total; copy++) {
    for (const tool of snapshot.descriptors) {
      if (tools.length >= total) break;
      const owner = `${tool.owner}~${copy}`;
      tools.push({ ...tool, id: `${owner}::${tool.name}`, owner });
    }
  }
  return { tools, queries };
}

function catalogOf(options: Options, total: number): { tools: ToolDescriptor[]; queries: string[] } {
  if (options.catalog === 'real') return realCatalog(options.dataDir, total);
  const extra = hasData(options.dataDir, 'mcp-catalog.json', 'mcp-catalog-queries.json')
    ? loadSnapshot(options.dataDir, 'mcp-catalog').queries.map((query) => query.query)
    : [];
  return { tools: fakeDescriptors(total), queries: [...LATENCY_QUERIES, ...extra] };
}

/**
 * A new catalog's index, built off the request path the way the modes prepare it. `fresh`: new descriptor objects
 * (nothing cached anywhere); otherwise the kernel's case, the same deep-frozen descriptors with one tool left out
 * (a catalog change: a new core is built, per-descriptor terms and rendered hits are reused).
 */
async function builtIndex(tools: readonly ToolDescriptor[], fresh: boolean, build: number): Promise<ToolIndex> {
  const catalog = fresh ? tools.map((tool) => ({ ...tool })) : tools.filter((_, i) => i !== build % tools.length);
  const run = { catalog };
  const index = prepareIndex(run);
  while (!isIndexBuilt(run)) await new Promise((resolve) => setImmediate(resolve));
  return index;
}

/**
 * This thread's run-queue wait so far, ns (`/proc/thread-self/schedstat`, second field): the time it was ready but
 * another process had the core. Always 0 where /proc has no schedstat (then on-CPU equals wall).
 */
function runQueueWait(): () => number {
  let fd: number;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return () => 0;
  }
  const buffer = Buffer.alloc(128);
  // "<on-CPU ns> <waited ns> <slices>": the second number, read from the bytes (no string per query).
  return () => {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    let at = 0;
    while (at < length && buffer[at] !== 32) at++;
    let ns = 0;
    for (at++; at < length && buffer[at]! >= 48 && buffer[at]! <= 57; at++) ns = ns * 10 + buffer[at]! - 48;
    return ns;
  };
}
const waited = runQueueWait();

function timed(index: ToolIndex, query: string, into: Samples): void {
  const at = performance.now();
  const before = waited();
  const start = process.hrtime.bigint();
  index.search(query);
  const ms = msSince(start);
  // Read after the clock: a wait just outside the timed span counts here too, so on-CPU errs low, never high.
  into.at[into.count] = at;
  into.ms[into.count] = ms;
  into.cpuMs[into.count++] = Math.max(0, ms - (waited() - before) / 1e6);
}

export async function measureTail(options: Options, total: number): Promise<TailRow> {
  const catalog = catalogOf(options, total);
  const queries = catalog.queries;
  const tools = options.fresh ? catalog.tools : catalog.tools.map((tool) => deepFreeze(structuredClone(tool)));
  // One untimed build and round first: the process's own first use (module code, JIT) is not the index's.
  const warm = await builtIndex(tools, options.fresh, -1);
  for (const query of queries) warm.search(query);
  collectGarbage();
  const gc = gcRecorder();
  const all = samples(options.builds * (1 + options.rounds * queries.length));
  const firsts: number[] = [];
  const windows: [number, number][] = [];
  for (let build = 0; build < options.builds; build++) {
    const index = await builtIndex(tools, options.fresh, build);
    const from = performance.now();
    timed(index, queries[build % queries.length]!, all);
    firsts.push(all.ms[all.count - 1]!);
    for (let r = 0; r < options.rounds; r++) for (const query of queries) timed(index, query, all);
    windows.push([from, performance.now()]);
    // Let the observer and the build's leftovers settle between builds, as a server does between catalog changes.
    await sleep(20);
  }
  await gc.flush();
  gc.stop();
  const inQueries = gc.pauses.filter((pause) =>
    windows.some(([from, to]) => pause.startTime >= from && pause.startTime < to),
  );
  const gcMs = inQueries.reduce((sum, pause) => sum + pause.duration, 0);
  const overlapped = (i: number): boolean =>
    inQueries.some(
      (pause) => pause.startTime < all.at[i]! + all.ms[i]! && pause.startTime + pause.duration > all.at[i]!,
    );
  const ms = Array.from(all.ms.subarray(0, all.count));
  const cpuMs = Array.from(all.cpuMs.subarray(0, all.count));
  const per1000 = 1000 / all.count;
  return {
    catalog: `${options.catalog}${options.fresh ? '' : ', same descriptors'}`,
    tools: tools.length,
    builds: options.builds,
    queries: all.count,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    p999: percentile(ms, 99.9),
    max: Math.max(...ms),
    firstMedian: percentile(firsts, 50),
    firstMax: Math.max(...firsts),
    p99NoGc: percentile(
      ms.filter((_, i) => !overlapped(i)),
      99,
    ),
    cpuP99: percentile(cpuMs, 99),
    cpuP999: percentile(cpuMs, 99.9),
    preempted: cpuMs.filter((cpu, i) => cpu < ms[i]! - 0.001).length / all.count,
    gcMsPer1000: gcMs * per1000,
    gcCountPer1000: inQueries.length * per1000,
    majorGcPer1000: inQueries.filter((pause) => gcKind(pause) === constants.NODE_PERFORMANCE_GC_MAJOR).length * per1000,
    gcMaxPauseMs: Math.max(0, ...inQueries.map((pause) => pause.duration)),
    loadAverage: os.loadavg().map((load) => round(load)),
  };
}

/** CPU-bound neighbours: `yes > /dev/null`, as many as asked, ended by their own pids. */
function startHogs(count: number): ChildProcess[] {
  const sink = count > 0 ? openSync('/dev/null', 'w') : -1;
  return Array.from({ length: count }, () => spawn('yes', [], { stdio: ['ignore', sink, 'ignore'] }));
}

function parse(argv: readonly string[]): Options {
  const flag = (name: string): string | undefined =>
    argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, fallback: number): number => Number(flag(name) ?? fallback);
  const dataDir = flag('data') ?? defaultDataDir();
  // Without the shared data (a fresh checkout), the generated catalog stands in, and the report says which it was.
  if (flag('catalog') !== 'fake' && !hasData(dataDir, 'mcp-catalog.json', 'mcp-catalog-queries.json'))
    console.warn(`search tail: no real catalog in ${dataDir}; measuring the generated one`);
  return {
    sizes: (flag('sizes') ?? '1000,10000').split(',').map(Number),
    builds: number('builds', 20),
    rounds: number('rounds', 3),
    hogs: number('hogs', 0),
    catalog:
      flag('catalog') === 'fake' || !hasData(dataDir, 'mcp-catalog.json', 'mcp-catalog-queries.json') ? 'fake' : 'real',
    fresh: !argv.includes('--same-descriptors'),
    dataDir,
  };
}

function table(rows: readonly TailRow[]): string {
  const f = (value: number): string => value.toFixed(3);
  const lines = [
    '| catalog | tools | builds | queries | p50 | p99 | p99.9 | max | first query (median / max) | p99 no-GC | on CPU p99 / p99.9 | waited for a core | GC ms / 1,000 queries | GCs / 1,000 (major) | longest GC | loadavg (1/5/15) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows)
    lines.push(
      `| ${row.catalog} | ${row.tools.toLocaleString('en-US')} | ${row.builds} | ${row.queries.toLocaleString('en-US')} | ` +
        `${f(row.p50)} ms | ${f(row.p99)} ms | ${f(row.p999)} ms | ${f(row.max)} ms | ` +
        `${f(row.firstMedian)} / ${f(row.firstMax)} ms | ${f(row.p99NoGc)} ms | ${f(row.cpuP99)} / ${f(row.cpuP999)} ms | ` +
        `${(row.preempted * 100).toFixed(1)}% | ${row.gcMsPer1000.toFixed(2)} ms | ` +
        `${row.gcCountPer1000.toFixed(1)} (${row.majorGcPer1000.toFixed(1)}) | ${f(row.gcMaxPauseMs)} ms | ${row.loadAverage.join(' / ')} |`,
    );
  return lines.join('\n');
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const hogs = startHogs(options.hogs);
  const rows: TailRow[] = [];
  try {
    // The hogs get a moment to take their cores before anything is timed.
    if (hogs.length > 0) await sleep(1000);
    for (const size of options.sizes) rows.push(await measureTail(options, size));
  } finally {
    for (const hog of hogs) hog.kill();
  }
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, ${options.hogs} CPU-bound neighbour(s), ` +
      `${options.rounds} rounds of the queries per build\n`,
  );
  console.log(table(rows));
}

await main();
