/**
 * `npm run bench` entry: runs every benchmark once and writes BENCHMARKS.md
 * and bench/payload-bytes.svg at the repo root. `--quick` prints a short
 * summary and writes nothing (the CI smoke runs the same code in-process).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runBench } from './bench.js';
import { payloadChart } from './chart.js';
import { renderReport, summaryLines } from './report.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const COMMAND = 'npm run bench';

const quick = process.argv.includes('--quick');
const results = await runBench({ quick, log: (line) => process.stderr.write(`[bench] ${line}\n`) });
if (quick) {
  process.stdout.write(`${summaryLines(results).join('\n')}\n`);
} else {
  writeFileSync(`${REPO_ROOT}bench/payload-bytes.svg`, payloadChart(results.payload.fake, results.payload.real));
  // Section 9 (the frameworks row) comes from its own script's last full run (`npm run bench:frameworks`), section 11
  // (install size) from the install test's last run (`TOOL_SEARCH_INSTALL_TEST=1`, which `npm run bench` sets).
  const kept = ['bench/frameworks.md', 'bench/install-size.md'].map((file) => `${REPO_ROOT}${file}`);
  const appended = kept.filter((file) => existsSync(file)).map((file) => `\n${readFileSync(file, 'utf8')}`);
  writeFileSync(`${REPO_ROOT}BENCHMARKS.md`, renderReport(results, COMMAND) + appended.join(''));
  process.stdout.write(`${summaryLines(results).join('\n')}\nwrote BENCHMARKS.md and bench/payload-bytes.svg\n`);
}
