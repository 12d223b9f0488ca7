/**
 * `npm run bench:cli -w @tool-search/bench`: only the CLI start-up rows (issue 34), measured alone and written in
 * place: BENCHMARKS.md section 9 and its two rows of the targets table; the rest of the file is left as the last
 * `npm run bench` wrote it. Build first (`node scripts/build.mjs`): it spawns the built bin.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { measureCliStartup } from './cli-startup.js';
import { machineInfo } from './machine.js';
import { CLI_HEADING, cliStartupSection, withCliStartup } from './report.js';

const RUNS = 15;
const file = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
const machine = machineInfo();
const result = await measureCliStartup(RUNS);
if (result.skipped) throw new Error(`cannot measure the CLI start-up: ${result.skipped}`);
const note = `Measured alone by \`npm run bench:cli -w @tool-search/bench\` (${RUNS} runs per command) on ${machine.date}: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM, ${machine.platform}, Node ${machine.node}.`;
writeFileSync(file, withCliStartup(readFileSync(file, 'utf8'), result, note));
process.stdout.write(`${[...cliStartupSection(result, CLI_HEADING), note].join('\n')}\n`);
