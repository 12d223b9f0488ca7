/**
 * `npm run bench:learning -w @tool-search/bench`: only the learning simulation (BENCHMARKS.md section 2, "Learning from
 * the deployment"), printed and written into the existing BENCHMARKS.md in place; `npm run bench` measures it too.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from './catalogs.js';
import { LEARNING_HEADING, learningSection, measureLearning } from './learning.js';

const rows = measureLearning(defaultDataDir());
if (rows.length === 0)
  process.stdout.write(`skipping the learning simulation: no shared data in ${defaultDataDir()}\n`);
else {
  const section = `${learningSection(rows).join('\n')}\n`;
  process.stdout.write(section);
  const file = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    const start = text.indexOf(LEARNING_HEADING);
    const next = (from: number) => {
      const found = [text.indexOf('\n## ', from), text.indexOf('\n### ', from)].filter((at) => at >= 0);
      return found.length ? Math.min(...found) + 1 : text.length;
    };
    const updated =
      start >= 0
        ? text.slice(0, start) + section + '\n' + text.slice(next(start + 1))
        : insertBefore(text, '## 3. Search latency', `${section}\n`);
    writeFileSync(file, updated.replace(/\n{3,}/g, '\n\n'));
    process.stdout.write('updated BENCHMARKS.md\n');
  }
}

function insertBefore(text: string, heading: string, section: string): string {
  const at = text.indexOf(heading);
  return at < 0 ? `${text}\n${section}` : text.slice(0, at) + section + text.slice(at);
}
