/**
 * `npm run bench:mode-load -w @tool-search/bench`: only BENCHMARKS.md section 10 (exposure modes under load, issue
 * 30), measured and written in place; the rest of the file is left as the last `npm run bench` wrote it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { machineInfo } from './machine.js';
import { measureModeLoad, MODE_LOAD_FULL, modeLoadSection } from './mode-load.js';

const HEADING = '## 10. Exposure modes under load';
const file = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
const machine = machineInfo();
const result = await measureModeLoad(MODE_LOAD_FULL);
const section = [
  ...modeLoadSection(result, HEADING),
  `Measured alone on ${machine.date} (${machine.cpu}, ${machine.cores} cores, Node ${machine.node}).`,
  '',
].join('\n');
const text = readFileSync(file, 'utf8');
const start = text.indexOf(HEADING);
const end = start === -1 ? -1 : text.indexOf('\n## ', start + HEADING.length);
writeFileSync(
  file,
  start === -1 ? `${text}\n${section}` : `${text.slice(0, start)}${section}${end === -1 ? '' : text.slice(end)}`,
);
process.stdout.write(`${section}\n`);
