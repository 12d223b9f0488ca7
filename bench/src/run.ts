/**
 * `npm run bench` entry: runs every benchmark once and writes BENCHMARKS.md, bench/headline.json and
 * bench/payload-bytes.svg. `--quick` prints a short summary and writes nothing (the CI smoke runs the same code
 * in-process). `--headline` measures only the headline ratios and rewrites their section, section 8 (the gateway and
 * Redis rows, which come from the headline runs) and bench/headline.json. `--check` measures the headline rows again
 * and exits 1 naming each one whose new median is outside the band bench/headline.json states. `--runs N` sets the
 * number of interleaved runs of the headline (default 3, or the stated file's for `--check`). `--render` rewrites those
 * two parts of BENCHMARKS.md from bench/headline.json without measuring.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBench } from './bench.js';
import { payloadChart } from './chart.js';
import { checkHeadline, medians, replaceSection, withHeadline, type HeadlineFile } from './headline.js';
import { measureHeadline } from './headline-rows.js';
import { replicaLoadSection } from './replica-load.js';
import { REPLICA_HEADING, renderReport, summaryLines } from './report.js';
import { median } from './stats.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HEADLINE_FILE = `${REPO_ROOT}bench/headline.json`;
const REPORT_FILE = `${REPO_ROOT}BENCHMARKS.md`;
export const COMMAND = 'npm run bench';

const args = process.argv.slice(2);
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const runsArg = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : undefined;

if (args.includes('--check')) await check();
else if (args.includes('--headline')) await headlineOnly();
else if (args.includes('--render')) writeHeadline(readStated());
else await full(args.includes('--quick'));

async function full(quick: boolean): Promise<void> {
  const results = await runBench({ quick, log, command: COMMAND });
  if (quick) {
    process.stdout.write(`${summaryLines(results).join('\n')}\n`);
    return;
  }
  writeFileSync(`${REPO_ROOT}bench/payload-bytes.svg`, payloadChart(results.payload.fake, results.payload.real));
  writeFileSync(HEADLINE_FILE, `${JSON.stringify(results.headline, null, 2)}\n`);
  // Section 9 (the frameworks row) comes from its own script's last full run (`npm run bench:frameworks`), section 11
  // (install size) from the install test's last run (`TOOL_SEARCH_INSTALL_TEST=1`, which `npm run bench` sets), 12 and
  // 13 (prompt caching by mode, the search tail) from their scripts' printed tables, which `npm run bench` prints.
  const kept = ['frameworks', 'install-size', 'prompt-cache', 'search-tail'].map(
    (name) => `${REPO_ROOT}bench/${name}.md`,
  );
  const appended = kept.filter((file) => existsSync(file)).map((file) => `\n${readFileSync(file, 'utf8')}`);
  writeFileSync(REPORT_FILE, renderReport(results, COMMAND) + appended.join(''));
  process.stdout.write(
    `${summaryLines(results).join('\n')}\nwrote BENCHMARKS.md, bench/headline.json and bench/payload-bytes.svg\n`,
  );
}

/** The headline alone, written in place; the rest of BENCHMARKS.md is left as the last full run wrote it. */
async function headlineOnly(): Promise<void> {
  const headline = await measureHeadline({ runs: runsArg ?? 3, command: `${COMMAND} -- --headline`, log });
  if (headline.runs < 3) log(`only ${headline.runs} run(s): a stated figure needs at least 3`);
  writeFileSync(HEADLINE_FILE, `${JSON.stringify(headline, null, 2)}\n`);
  writeHeadline(headline);
  process.stdout.write(`${JSON.stringify(medians(headline))}\nwrote bench/headline.json\n`);
}

/** The headline section and section 8 of BENCHMARKS.md from `headline`, in place (`--render`: from the file). */
function writeHeadline(headline: HeadlineFile): void {
  // The intro of the last full run says every number comes from it: no longer true of the two parts rewritten here.
  let text = readFileSync(REPORT_FILE, 'utf8').replace(
    'Every number below comes from that one run.',
    'Every number below comes from that one run, except the headline ratios and section 8, measured since by `npm run bench -- --headline` (dated in their section).',
  );
  text = withHeadline(text, headline);
  text = replaceSection(text, REPLICA_HEADING, replicaLoadSection(headline, REPLICA_HEADING));
  writeFileSync(REPORT_FILE, text);
  process.stdout.write('wrote the headline and section 8 of BENCHMARKS.md\n');
}

function readStated(): HeadlineFile {
  if (!existsSync(HEADLINE_FILE)) {
    process.stderr.write(`no stated headline (${HEADLINE_FILE}): run \`npm run bench -- --headline\` first\n`);
    process.exit(2);
  }
  return JSON.parse(readFileSync(HEADLINE_FILE, 'utf8')) as HeadlineFile;
}

async function check(): Promise<void> {
  const stated = readStated();
  const fresh = await measureHeadline({ runs: runsArg ?? stated.runs, command: `${COMMAND} -- --check`, log });
  const result = checkHeadline(stated, medians(fresh), fresh.skipped);
  // The fresh figures are kept for a look (never over the stated file): the runs' samples and loads explain a verdict.
  const freshFile = join(tmpdir(), 'tool-search-headline-check.json');
  writeFileSync(freshFile, `${JSON.stringify(fresh, null, 2)}\n`);
  for (const v of result.verdicts) {
    const row = fresh.rows.find((r) => r.id === v.id);
    const runs = row ? ` (runs ${row.samples.join(', ')} at load ${row.load.join(', ')})` : '';
    process.stdout.write(
      `${v.unchecked ? 'skip ' : v.ok ? 'ok   ' : 'STALE'} ${v.id}: ${v.measured ?? '-'}× now${runs}, stated ${v.stated.median}× (${v.stated.min}–${v.stated.max}), band ${v.band[0]}–${v.band[1]}\n`,
    );
  }
  process.stdout.write(`this run's figures: ${freshFile}\n`);
  const load = (h: HeadlineFile) => median(h.rows.flatMap((row) => row.load));
  process.stdout.write(
    `1-minute load at the runs: median ${load(fresh)} now, ${load(stated)} when stated; node -e 0 ${fresh.machine.nodeE0Ms.median} ms now, ${stated.machine.nodeE0Ms.median} ms when stated\n`,
  );
  if (
    Math.max(load(fresh), 1) / Math.max(load(stated), 1) > 2 ||
    Math.max(load(stated), 1) / Math.max(load(fresh), 1) > 2
  )
    process.stdout.write(
      'the load differs by more than 2x from when the figures were stated: read a STALE row with that in mind\n',
    );
  if (result.messages.length) process.stderr.write(`${result.messages.join('\n')}\n`);
  if (!result.ok) {
    process.stderr.write('the stated headline is stale: measure it again with `npm run bench -- --headline`\n');
    process.exit(1);
  }
}
