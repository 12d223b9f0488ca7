/**
 * `npm run bench:frameworks -w @tool-search/bench`: issue 29's row (framework built-in search vs Tool Search's ranker
 * plugged into it), printed as the BENCHMARKS.md section's table. `--only mcp-catalog,livemcpbench` narrows it.
 */
import { defaultDataDir } from './catalogs.js';
import { frameworksTable, measureFrameworks } from './frameworks.js';
import type { SnapshotName } from '@tool-search/search';

const onlyArg = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const only = onlyArg ? (onlyArg.split(',') as SnapshotName[]) : undefined;
const start = Date.now();
const rows = await measureFrameworks(defaultDataDir(), only);
if (rows.length === 0) process.stdout.write(`skipping the frameworks benchmark: no shared data in ${defaultDataDir()}\n`);
else process.stdout.write(`${frameworksTable(rows)}\n\n(${((Date.now() - start) / 1000).toFixed(0)} s, Node ${process.version}, ${new Date().toISOString()})\n`);
