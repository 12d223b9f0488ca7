#!/usr/bin/env node
// A test that can skip (missing data, a missing build) must say why when it does, or a green run hides what did
// not run: every test file with `skipIf`/`runIf`/`.skip(` prints a "skipping …: reason" line (console.warn), itself
// or in a relative import. Run by `npm test` through check-deps.mjs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { workspaceDirs } from './check-packages.mjs';

const SKIPS = /\.(skipIf|runIf)\(|\b(it|test|describe)\.skip\(/;
// `stateBackends(` and `noteSkipped(` (@tool-search/testing) print the "skipping …: why (apt-get …)" line themselves.
const SAYS_WHY = /console\.(warn|log|info|error)\(\s*[`'"]skipping |\bstateBackends(<[^>]*>)?\(|\bnoteSkipped\(/;

const walk = (dir) =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]))
    : [];

/** Test files under `root` that can skip without saying why. */
export function silentSkips(root = '.') {
  const files = workspaceDirs(root).flatMap((dir) => ['test', 'examples'].flatMap((sub) => walk(join(root, dir, sub))));
  return files
    .filter((file) => /\.test\.[cm]?[jt]s$/.test(file) && SKIPS.test(readFileSync(file, 'utf8')))
    .filter((file) => ![file, ...relativeImports(file)].some((f) => SAYS_WHY.test(readFileSync(f, 'utf8'))));
}

function relativeImports(file) {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)]
    .map((m) => resolve(dirname(file), m[1].replace(/\.js$/, '.ts')))
    .filter((f) => existsSync(f));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const silent = silentSkips();
  for (const file of silent)
    console.log(
      `${file}: can skip without printing why (add console.warn(\`skipping …: <what is missing; how to get it>\`))`,
    );
  process.exit(silent.length ? 1 : 0);
}
