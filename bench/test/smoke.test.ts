/**
 * CI smoke of the bench: the quick plan in-process (small catalogs, one
 * repetition, nothing written), so the benchmark code cannot rot. It checks
 * that the numbers are sane, never how fast anything was. Every section is
 * measured once here and checked here (the CLI start-up and mode-load rows
 * included), so no other test file runs the same measurement again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runBench, type BenchResults } from '../src/bench.js';
import { payloadChart } from '../src/chart.js';
import { modeLoadSection } from '../src/mode-load.js';
import { renderReport } from '../src/report.js';

// One quick bench for every test: the promise is kept, so a test that times out on a loaded machine does not start
// another run (and leave its gateway replicas behind) while the first is still going.
let results: Promise<BenchResults> | undefined;
function quick(): Promise<BenchResults> {
  results ??= runBench({ quick: true });
  return results;
}

// The quick plan starts gateways, replicas and Redis: minutes on a loaded machine, so it gets its own generous budget.
beforeAll(() => quick(), 1_200_000);

describe('quick bench', () => {
  it('measures every search mode smaller than direct exposure', async () => {
    const { payload } = await quick();
    expect(payload.fake.map((p) => p.catalogSize)).toEqual([36, 100]);
    for (const catalog of payload.fake) {
      const direct = catalog.modes.find((m) => m.mode === 'direct')!;
      expect(direct.tools).toBe(catalog.catalogSize);
      for (const mode of catalog.modes.filter((m) => m.mode !== 'direct')) {
        expect(mode.requestBytes).toBeLessThan(direct.requestBytes);
        expect(mode.requestTokens).toBeGreaterThan(0);
        expect(mode.requestTokens).toBeLessThan(mode.requestBytes);
      }
    }
  });

  it('grows direct exposure with the catalog', async () => {
    const [small, large] = (await quick()).payload.fake;
    const bytes = (p: typeof small) => p!.modes.find((m) => m.mode === 'direct')!.requestBytes;
    expect(bytes(large)).toBeGreaterThan(bytes(small));
  });

  it('scores search quality as fractions, when shared/data is present', async () => {
    const { quality, dataPresent } = await quick();
    if (!dataPresent) return expect(quality).toEqual([]);
    for (const row of quality) {
      expect(row.queries).toBeGreaterThan(0);
      for (const metrics of [row.ours, row.bm25]) {
        expect(metrics.recallAt1).toBeLessThanOrEqual(metrics.recallAt5);
        expect(metrics.recallAt5).toBeLessThanOrEqual(metrics.recallAt10);
        expect(metrics.recallAt10).toBeLessThanOrEqual(1);
      }
    }
  });

  it('reports latency percentiles in order', async () => {
    const [row] = (await quick()).latency;
    expect(row!.buildMsMedian).toBeGreaterThan(0);
    expect(row!.queryMsP50).toBeLessThanOrEqual(row!.queryMsP99);
  });

  it('runs one search and one call through tool_search_code, or says why not', async () => {
    const { codeMode } = await quick();
    if (codeMode.skipped) return expect(codeMode.skipped).toMatch(/fell back/);
    expect(codeMode.sample).toContain('"isError":false');
    expect(codeMode.bareSpawnMs).toBeGreaterThan(0);
    expect(codeMode.quickjsSkipped).toBeUndefined();
    expect(codeMode.quickjsMs).toBeGreaterThan(0);
  });

  it('completes every kernel call it times', async () => {
    const { overhead } = await quick();
    expect(overhead.statuses).toEqual({ ok: overhead.calls });
  });

  it('soaks calls, sessions and code runs without failures', async () => {
    const { soak } = await quick();
    expect(soak.map((row) => row.loop)).toEqual(['calls', 'sessions', 'code runs', 'code runs (process)']);
    for (const row of soak) {
      expect(row.failures).toBe(0);
      expect(row.endMb).toBeGreaterThan(0);
    }
  });

  it('answers every concurrent gateway request', async () => {
    const { gatewayLoad } = await quick();
    expect(gatewayLoad).toMatchObject({ requests: 5, failures: 0 });
    expect(gatewayLoad.providerBodyMb).toBeGreaterThan(0);
  });

  it('measures every headline row once (the gateway and Redis rows when redis-server and the built CLI are there)', async () => {
    const { headline } = await quick();
    for (const [id, why] of Object.entries(headline.skipped ?? {})) console.warn(`skipping headline row ${id}: ${why}`);
    const expected = [
      'code-cold',
      'cli-help',
      'cli-tools-list',
      'code-vs-tools',
      'redis-per-call',
      'gateway-turns-per-node',
      'gateway-redis-vs-memory',
      'gateway-two-vs-one',
    ].filter((id) => !headline.skipped?.[id]);
    expect(headline.rows.map((row) => row.id)).toEqual(expected);
    for (const row of headline.rows) {
      expect(row.samples).toHaveLength(1);
      expect(row.ratio.median).toBeGreaterThan(0);
      expect(row.load).toHaveLength(1);
      for (const [name, spread] of Object.entries(row.detail))
        if (name.endsWith('errors')) expect([name, spread.max]).toEqual([name, 0]);
    }
    expect(headline.machine.nodeE0Ms.median).toBeGreaterThan(0);
    expect(renderReport(await quick(), 'test')).toContain('## Headline ratios');
  });

  it('renders the report and the chart from the same results', async () => {
    const r = await quick();
    expect(renderReport(r, 'npm run bench')).toContain('npm run bench');
    expect(payloadChart(r.payload.fake)).toMatch(/^<svg[\s\S]*<\/svg>\n$/);
  });
});

describe('CLI start-up rows', () => {
  it('times --help, a typo, tools --help, tools list and two server starts next to node -e 0, with exit codes', async () => {
    const { cliStartup } = await quick();
    if (cliStartup.skipped) {
      console.warn(`skipping the CLI start-up rows: ${cliStartup.skipped}`);
      return;
    }
    expect(cliStartup.rows.map((row) => [row.command, row.exitCode])).toEqual([
      ['tool-search --help', 0],
      ['tool-search tols list', 2],
      ['tool-search tools --help', 0],
      ['tool-search tools list', 0],
      // Stopped with Ctrl-C once listening: a clean shutdown exits 0.
      ['tool-search gateway --provider-mode mock-openai (until listening)', 0],
      ['tool-search serve mcp --http 0 (until listening)', 0],
    ]);
    for (const row of cliStartup.rows) expect(row.ratioToNode).toBeGreaterThan(0);
    expect(cliStartup.load?.before).toBeGreaterThanOrEqual(0);
    if (process.platform === 'linux') {
      const list = cliStartup.rows.find((row) => row.command === 'tool-search tools list')!;
      // Building a kernel over 1,025 tools costs more CPU than an empty node: the figure is the child's, not noise.
      expect(list.cpuMs).toBeGreaterThan(list.nodeCpuMs!);
    }
    expect(renderReport(await quick(), 'test')).toContain('## 9. CLI start-up');
  });
});

describe('exposure modes under load (quick plan)', () => {
  it('runs every setup through the gateway without errors and reports the code/tools ratio', async () => {
    const { modeLoad } = await quick();
    expect(modeLoad.rows.map((row) => [row.setup, row.turns, row.errors])).toEqual([
      ['direct', 4, 0],
      ['tools', 4, 0],
      ['code, process per run', 4, 0],
      ['code, warm pool of 2', 4, 0],
      ['code, QuickJS worker, maxConcurrent 4', 4, 0],
      ['code, QuickJS worker', 4, 0],
    ]);
    for (const row of modeLoad.rows) {
      expect(row.p99Ms).toBeGreaterThanOrEqual(row.p50Ms);
      expect(row.cpuMsPerTurn).toBeGreaterThan(0);
    }
    expect(modeLoadSection(modeLoad, '## 9').join('\n')).toMatch(
      /Fastest code setup \(.+\) \/ tools mode: \*\*[\d.]+×\*\* turns\/s/,
    );
  });
});
