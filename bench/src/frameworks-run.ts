/**
 * `npm run bench:frameworks -w @tool-search/bench`: issue 29's row (framework built-in search vs Tool Search's ranker
 * plugged into it): prints BENCHMARKS.md section 9 and, for a full run, writes it to bench/frameworks.md, which
 * `npm run bench` appends to BENCHMARKS.md. `--only=mcp-catalog,livemcpbench` narrows it (and writes nothing).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from './catalogs.js';
import { frameworksSection, measureFrameworks } from './frameworks.js';
import type { SnapshotName } from '@tool-search/search';

const onlyArg = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const only = onlyArg ? (onlyArg.split(',') as SnapshotName[]) : undefined;
const start = Date.now();
const rows = await measureFrameworks(defaultDataDir(), only);
if (rows.length === 0)
  process.stdout.write(`skipping the frameworks benchmark: no shared data in ${defaultDataDir()}\n`);
else {
  const section = frameworksSection(rows, {
    date: new Date().toISOString(),
    seconds: (Date.now() - start) / 1000,
    node: process.version,
    dataDir: defaultDataDir(),
  });
  // Only a full run (all data sets) replaces the section `npm run bench` appends to BENCHMARKS.md.
  if (!only) writeFileSync(fileURLToPath(new URL('../frameworks.md', import.meta.url)), section);
  process.stdout.write(section);
}
