/**
 * One bench run: every measurement side by side in one process, so the
 * numbers in BENCHMARKS.md share a machine, a load and a Node version.
 * `quick` is the CI smoke: small sizes, few repetitions, nothing written.
 */
import { loadSnapshot } from '@tool-search/search';
import { defaultDataDir, hasData } from './catalogs.js';
import { measureCliStartup, type CliStartupResult } from './cli-startup.js';
import { measureCodeMode, type CodeModeResult } from './code-mode.js';
import { measureHybrid, type HybridRow } from './hybrid.js';
import { measureIndexReuse, type ReuseResult } from './index-reuse.js';
import { measureLatency, type LatencyRow } from './latency.js';
import { measureLearning, type LearningRow } from './learning.js';
import { machineInfo, type MachineInfo } from './machine.js';
import { measureOverhead, type OverheadResult } from './overhead.js';
import { measureFakePayload, measureSnapshotPayload, type CatalogPayload } from './payload.js';
import { measureQuality, type QualityRow } from './quality.js';
import { measureSoak, SOAK_FULL, SOAK_QUICK, type SoakRow } from './soak.js';
import type { HeadlineFile } from './headline.js';
import { measureHeadline } from './headline-rows.js';
import { GATEWAY_LOAD_FULL, GATEWAY_LOAD_QUICK, measureGatewayLoad, type GatewayLoadResult } from './gateway-load.js';
import { measureModeLoad, MODE_LOAD_FULL, MODE_LOAD_QUICK, type ModeLoadResult } from './mode-load.js';

export interface BenchOptions {
  readonly quick?: boolean;
  readonly dataDir?: string;
  /** Progress lines (stderr in the CLI entry). */
  readonly log?: (line: string) => void;
  /** The command named in the headline file. */
  readonly command?: string;
}

export interface BenchResults {
  readonly quick: boolean;
  readonly machine: MachineInfo;
  readonly dataDir: string;
  readonly dataPresent: boolean;
  readonly payload: { readonly fake: readonly CatalogPayload[]; readonly real?: CatalogPayload };
  readonly quality: readonly QualityRow[];
  readonly hybrid: readonly HybridRow[];
  readonly learning: readonly LearningRow[];
  readonly latency: readonly LatencyRow[];
  readonly reuse: ReuseResult;
  readonly codeMode: CodeModeResult;
  readonly overhead: OverheadResult;
  readonly soak: readonly SoakRow[];
  readonly gatewayLoad: GatewayLoadResult;
  /** The headline ratios (code cold, CLI, modes, Redis per call, gateway replicas), ≥ 3 interleaved runs in the full plan. */
  readonly headline: HeadlineFile;
  readonly cliStartup: CliStartupResult;
  readonly modeLoad: ModeLoadResult;
  readonly durationS: number;
}

export const FULL = {
  payloadSizes: [36, 100, 1000, 10_000],
  latency: [
    { tools: 1000, buildRuns: 9, queryRounds: 20 },
    { tools: 10_000, buildRuns: 7, queryRounds: 10 },
    { tools: 100_000, buildRuns: 3, queryRounds: 3 },
  ],
  reuse: { tools: 100_000, runs: 5 },
  codeRuns: 25,
  code: { catalogTotal: 1000, quickjsBackToBack: 200 },
  overheadCalls: 5000,
  cliRuns: 10,
  cliWarmUp: true,
  headlineRuns: 3,
} as const;

export const QUICK = {
  payloadSizes: [36, 100],
  latency: [{ tools: 1000, buildRuns: 1, queryRounds: 1 }],
  reuse: { tools: 1000, runs: 1 },
  codeRuns: 1,
  // The CI smoke proves each section's code runs and its numbers are sane, not how fast anything is: the cheapest run
  // that goes through every path (a sampled real catalog, a small code-mode catalog, no warm-up pair for the CLI).
  code: { catalogTotal: 100, quickjsBackToBack: 3 },
  overheadCalls: 200,
  cliRuns: 1,
  cliWarmUp: false,
  headlineRuns: 1,
  /** Real-catalog sections (quality, hybrid) on the first queries and the tools they need plus the first others. */
  sample: { queries: 25, tools: 400 },
} as const;

export async function runBench(options: BenchOptions = {}): Promise<BenchResults> {
  const started = process.hrtime.bigint();
  const quick = options.quick ?? false;
  const plan = quick ? QUICK : FULL;
  const dataDir = options.dataDir ?? defaultDataDir();
  const log = options.log ?? (() => {});
  const dataPresent = hasData(dataDir, 'mcp-catalog.json');
  const machine = machineInfo();

  const fake: CatalogPayload[] = [];
  for (const size of plan.payloadSizes) {
    log(`payload: fake catalog, ${size} tools`);
    fake.push(await measureFakePayload(size));
  }
  let real: CatalogPayload | undefined;
  if (dataPresent && !quick) {
    log('payload: real MCP catalog');
    real = await measureSnapshotPayload('real MCP catalog', `${dataDir}/mcp-catalog.json`);
  }

  log('quality: shared query sets');
  const sample = 'sample' in plan ? plan.sample : undefined;
  const quality = measureQuality(dataDir, quick ? ['mcp-catalog'] : undefined, sample);
  log('hybrid: lexical, dense and fused (mock-openai embeddings over HTTP)');
  const hybrid = dataPresent ? await measureHybrid(dataDir, quick ? ['mcp-catalog'] : undefined, sample) : [];
  log('learning: replayed calls, evaluated on other queries');
  const learning = dataPresent
    ? measureLearning(dataDir, quick ? { only: ['mcp-catalog'], seeds: 1, curve: [0, 50] } : {})
    : [];

  const extraQueries =
    dataPresent && hasData(dataDir, 'mcp-catalog-queries.json')
      ? loadSnapshot(dataDir, 'mcp-catalog').queries.map((q) => q.query)
      : [];
  const latency: LatencyRow[] = [];
  for (const step of plan.latency) {
    log(`latency: ${step.tools} tools`);
    latency.push(
      await measureLatency(step.tools, { buildRuns: step.buildRuns, queryRounds: step.queryRounds, extraQueries }),
    );
  }

  log(`index reuse: ${plan.reuse.tools} tools, ${plan.reuse.runs} new runs`);
  const reuse = await measureIndexReuse(plan.reuse.tools, plan.reuse.runs);

  log('code mode: cold, warm, bare spawn');
  const codeMode = await measureCodeMode(plan.codeRuns, plan.code.catalogTotal, plan.code.quickjsBackToBack);
  log('kernel overhead per call');
  const overhead = await measureOverhead(plan.overheadCalls);
  log('soak: calls, sessions, code runs');
  const soak = await measureSoak(quick ? SOAK_QUICK : SOAK_FULL);
  log('gateway under load: concurrent direct-mode requests');
  const gatewayLoad = await measureGatewayLoad(quick ? GATEWAY_LOAD_QUICK : GATEWAY_LOAD_FULL);
  log('CLI start-up: --help, a typo, tools list vs node -e 0');
  const cliStartup = await measureCliStartup(plan.cliRuns, { warmUp: plan.cliWarmUp });
  log('exposure modes under load: direct, tools, code on each sandbox');
  const modeLoad = await measureModeLoad(quick ? MODE_LOAD_QUICK : MODE_LOAD_FULL);
  log('headline ratios: interleaved runs (the gateway replicas and Redis rows among them)');
  const headline = await measureHeadline({
    runs: plan.headlineRuns,
    quick,
    command: options.command ?? 'npm run bench',
    log,
  });
  return {
    quick,
    machine,
    dataDir,
    dataPresent,
    payload: { fake, ...(real ? { real } : {}) },
    quality,
    hybrid,
    learning,
    latency,
    reuse,
    codeMode,
    overhead,
    soak,
    gatewayLoad,
    headline,
    cliStartup,
    modeLoad,
    durationS: Number(process.hrtime.bigint() - started) / 1e9,
  };
}
