#!/usr/bin/env node
// The packaging rules every public workspace package follows, so what `npm pack`
// ships works once installed (checked without a build; the pack-install test in
// e2e/test/packed.test.ts checks the built tarballs). `--fix` rewrites package.json
// files to follow the rules. Run by `npm test` through check-deps.mjs.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const KERNEL = '@tool-search/kernel';
/** Shipped by every public package: sources (source maps point at them, and the `@tool-search/source` condition resolves to them), no build info. */
const REQUIRED_FILES = ['dist', '!dist/.tsbuildinfo', 'src', 'README.md'];

/** Every workspace folder with a package.json (the root package.json's `workspaces`, `dir/*` globs expanded). */
export function workspaceDirs(root = '.') {
  const { workspaces = [] } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return workspaces
    .flatMap((pattern) =>
      pattern.endsWith('/*')
        ? readdirSync(join(root, pattern.slice(0, -2))).map((d) => join(pattern.slice(0, -2), d))
        : [pattern],
    )
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .sort();
}

/** `{ dir, pkg }` of every public workspace package. */
export function publicPackages(root = '.') {
  return workspaceDirs(root)
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) }))
    .filter(({ pkg }) => !pkg.private);
}

/** Problems of one package (strings naming the package, the rule and the fix); with `fix`, repairs `pkg` in place. */
export function packageProblems(pkg, { version, privateNames, fix = false }) {
  const problems = [];
  const say = (message) => problems.push(`${pkg.name}: ${message}`);
  if (!pkg.description) say('has no "description" (npm shows it)');
  const files = pkg.files ?? [];
  const missing = REQUIRED_FILES.filter((entry) => !files.includes(entry));
  if (missing.length) {
    if (fix) pkg.files = [...new Set([...REQUIRED_FILES.slice(0, 3), ...files, 'README.md'])];
    else
      say(
        `"files" lacks ${missing.map((m) => JSON.stringify(m)).join(', ')} (ship src for the source maps, never dist/.tsbuildinfo)`,
      );
  }
  for (const [section, deps] of Object.entries({
    dependencies: pkg.dependencies ?? {},
    peerDependencies: pkg.peerDependencies ?? {},
  })) {
    for (const [name, range] of Object.entries(deps)) {
      if (!name.startsWith('@tool-search/')) continue;
      if (privateNames.has(name)) say(`${section} has the private workspace package ${name}, which is never published`);
      if (name === KERNEL && section === 'dependencies') {
        if (fix) {
          delete pkg.dependencies[KERNEL];
          pkg.peerDependencies = { ...pkg.peerDependencies, [KERNEL]: `^${version}` };
          pkg.devDependencies = { ...pkg.devDependencies, [KERNEL]: version };
        } else
          say(
            `has ${KERNEL} in dependencies; make it a peerDependency "^${version}" (one kernel copy) plus a devDependency "${version}"`,
          );
      } else if (section === 'peerDependencies' && range !== `^${version}`) {
        if (fix) pkg.peerDependencies[name] = `^${version}`;
        else say(`peerDependencies ${name} is "${range}"; every package uses "^${version}"`);
      } else if (section === 'dependencies' && range !== `^${version}`) {
        // A range, not the exact version: a user installing one package (or two, released apart) shares one copy.
        if (fix) pkg.dependencies[name] = `^${version}`;
        else say(`dependencies ${name} is "${range}"; internal packages depend on each other as "^${version}"`);
      }
    }
  }
  for (const [condition, target] of exportTargets(pkg.exports)) {
    const shipped = condition === '@tool-search/source' ? target.startsWith('./src/') : target.startsWith('./dist/');
    if (!shipped)
      say(
        `exports condition "${condition}" points at ${target}, outside the folder it ships in (${condition === '@tool-search/source' ? 'src' : 'dist'})`,
      );
  }
  return problems;
}

function exportTargets(exports, condition = 'default') {
  if (typeof exports === 'string') return [[condition, exports]];
  if (!exports || typeof exports !== 'object') return [];
  return Object.entries(exports).flatMap(([key, value]) => exportTargets(value, key.startsWith('.') ? condition : key));
}

export function checkPackages({ root = '.', fix = false } = {}) {
  const version = JSON.parse(readFileSync(join(root, 'packages/kernel/package.json'), 'utf8')).version;
  const privateNames = new Set(
    workspaceDirs(root)
      .map((dir) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')))
      .filter((pkg) => pkg.private)
      .map((pkg) => pkg.name),
  );
  const problems = [];
  for (const { dir, pkg } of publicPackages(root)) {
    if (!existsSync(join(root, dir, 'README.md'))) problems.push(`${pkg.name}: has no README.md`);
    problems.push(...packageProblems(pkg, { version, privateNames, fix }));
    if (fix) writeFileSync(join(root, dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = checkPackages({ fix: process.argv.includes('--fix') });
  for (const problem of problems) console.log(problem);
  console.log(
    problems.length
      ? `${problems.length} packaging problems (node scripts/check-packages.mjs --fix repairs most)`
      : 'packaging rules followed',
  );
  process.exit(problems.length ? 1 : 0);
}
