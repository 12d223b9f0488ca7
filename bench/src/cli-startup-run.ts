/**
 * `npm run bench:cli -w @tool-search/bench`: only the CLI start-up rows (issue 34), measured alone and written in
 * place: BENCHMARKS.md section 9 and its two rows of the targets table; the rest of the file is left as the last
 * `npm run bench` wrote it. Build first (`node scripts/build.mjs`): it spawns the built bin.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { measureCliStartup } from './cli-startup.js';
import { machineInfo } from './machine.js';
import { CLI_HEADING, cliStartupSection, cliTargets } from './report.js';

const RUNS = 15;
const file = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
const machine = machineInfo();
const result = await measureCliStartup(RUNS);
if (result.skipped) throw new Error(`cannot measure the CLI start-up: ${result.skipped}`);
const section = [
  ...cliStartupSection(result, CLI_HEADING),
  `Measured alone by \`npm run bench:cli -w @tool-search/bench\` (${RUNS} runs per command) on ${machine.date}: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM, ${machine.platform}, Node ${machine.node}.`,
  '',
].join('\n');
let text = readFileSync(file, 'utf8');
const start = text.indexOf(CLI_HEADING);
const end = start === -1 ? -1 : text.indexOf('\n## ', start + CLI_HEADING.length);
text = start === -1 ? `${text}\n${section}` : `${text.slice(0, start)}${section}${end === -1 ? '' : text.slice(end)}`;
// The targets table keeps its numbering: each CLI row is found by its target text and its cells replaced.
for (const target of cliTargets({ cliStartup: result })) {
  const row = new RegExp(`^\\| (\\d+) \\| ${escapeRegExp(target.target)} \\|.*$`, 'm');
  text = text.replace(row, (_line, n: string) => `| ${n} | ${target.target} | ${target.value} (bench:cli) | ${target.met === undefined ? 'n/a' : target.met ? 'yes' : '**no**'} |`);
}
writeFileSync(file, text);
process.stdout.write(`${section}\n`);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
