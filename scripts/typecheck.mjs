#!/usr/bin/env node
// `npm run typecheck`: every workspace's tsconfig.spec.json (src and tests) in one `tsc -b` process.
//
// It shares the build's work: the build (`npm run build`: Nx, then one `tsc -b` over the tsconfig.build.json projects
// it could not take from its cache) has already type-checked every package's src and written its declarations, so
// each spec project here reads its siblings from their built `.d.ts` instead of re-checking their sources (the spec configs' `@tool-search/source` condition, which
// vitest and editors keep using). A generated config per workspace extends its tsconfig.spec.json with no custom
// conditions and an incremental build-info file, so an unchanged workspace is not checked again.
// Measured on preset alone (2 cores, loaded machine): 142 s from sources, 55 s from declarations.
//
// Usage: node scripts/typecheck.mjs [--no-build] [--sources] [workspace-dir ...]
//   --no-build  the caller just built (npm test); otherwise the incremental build runs first so declarations are fresh
//   --sources   the old way: check siblings from their sources (no build needed, slower)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { nxBuild } from './build.mjs';
import { workspaceDirs } from './check-packages.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const CACHE = join(ROOT, 'node_modules/.cache/tool-search/typecheck');
const argv = process.argv.slice(2);
const fromSources = argv.includes('--sources');
const only = argv.filter((a) => !a.startsWith('--'));
const workspaces = workspaceDirs(ROOT);
const dirOfPackage = new Map(
  workspaces.map((dir) => [JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')).name, dir]),
);
const dirs = workspaces
  .filter((dir) => (only.length ? only.includes(dir) : true))
  .filter((dir) => existsSync(join(ROOT, dir, 'tsconfig.spec.json')));

const started = Date.now();
if (!fromSources && !argv.includes('--no-build')) {
  // The build through Nx (`npm run build`): cached per project, what changed is one tsc -b.
  const build = nxBuild(ROOT);
  process.stdout.write(build.output);
  if (!build.ok) process.exit(1);
}
const projects = fromSources ? dirs.map((dir) => join(dir, 'tsconfig.spec.json')) : dirs.map(declarationsConfig);
const { status } = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', ...projects], {
  cwd: ROOT,
  stdio: 'inherit',
});
process.stdout.write(
  `typecheck of ${projects.length} projects${fromSources ? ' (siblings from sources)' : ''}: ${status === 0 ? 'no errors' : 'errors above'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
);
process.exit(status ?? 1);

/** A config beside the cache that checks `dir`'s spec project against its siblings' declarations. */
function declarationsConfig(dir) {
  mkdirSync(CACHE, { recursive: true });
  const name = dir.replaceAll('/', '_');
  const file = join(CACHE, `${name}.json`);
  const spec = join(ROOT, dir, 'tsconfig.spec.json');
  const config = {
    extends: spec,
    compilerOptions: { customConditions: [], incremental: true, tsBuildInfoFile: join(CACHE, `${name}.tsbuildinfo`) },
    // The build projects it reads declarations from: tsc -b checks it again when one of them changed.
    references: buildReferences(dir).map((path) => ({ path })),
  };
  const text = `${JSON.stringify(config, null, 2)}\n`;
  // Rewritten only when it changes, dated like the spec config it extends: tsc -b checks a project again when its
  // config is newer than its build info, and does not rewrite build info that did not change.
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
    writeFileSync(file, text);
    const { atime, mtime } = statSync(spec);
    utimesSync(file, atime, mtime);
  }
  return file;
}

/** The tsconfig.build.json of `dir` and of every workspace package it depends on (dependencies of any kind). */
function buildReferences(dir) {
  const pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'));
  const names = Object.keys({
    ...pkg.dependencies,
    ...pkg.devDependencies,
    ...pkg.peerDependencies,
    ...pkg.optionalDependencies,
  });
  const deps = names.map((n) => dirOfPackage.get(n)).filter((d) => d !== undefined);
  return [dir, ...deps].map((d) => join(ROOT, d, 'tsconfig.build.json')).filter((file) => existsSync(file));
}
