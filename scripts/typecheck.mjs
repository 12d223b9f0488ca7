#!/usr/bin/env node
// `npm run typecheck`: every workspace's tsconfig.spec.json (src and tests, siblings read from their sources) in one
// `tsc -b` process instead of one tsc per package. Usage: node scripts/typecheck.mjs [workspace-dir ...]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { workspaceDirs } from './check-packages.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
const projects = workspaceDirs(ROOT)
  .filter((dir) => (only.length ? only.includes(dir) : true))
  .filter((dir) => existsSync(join(ROOT, dir, 'tsconfig.spec.json')))
  .map((dir) => join(dir, 'tsconfig.spec.json'));
const started = Date.now();
const { status } = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', ...projects], { cwd: ROOT, stdio: 'inherit' });
process.stdout.write(`typecheck of ${projects.length} projects: ${status === 0 ? 'no errors' : 'errors above'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
process.exit(status ?? 1);
