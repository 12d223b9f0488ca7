#!/usr/bin/env node
// The build of every workspace: one `tsc -b` over the workspaces' tsconfig.build.json (one process, one type-checker,
// each project built once in reference order, skipped when up to date), then each workspace's `postbuild` script
// (files tsc does not emit, into its dist).
//
// `npm run build` is `nx run-many -t build`: Nx skips what its cache holds (restoring those dist folders) and hands
// the rest to this file's `buildDirs` as one batch (the executor in scripts/nx-tsc, nx.json's targetDefaults), so a
// cold build is still one tsc process, not one per package. Running this file directly builds everything without Nx.
// Usage: node scripts/build.mjs [--quiet] [--clean]   (--clean deletes the outputs instead: `tsc -b --clean`)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { workspaceDirs } from './check-packages.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** Every workspace's build project, in folder order (tsc -b orders them by their references). */
export function buildProjects(root = ROOT) {
  return workspaceDirs(root)
    .filter((dir) => existsSync(join(root, dir, 'tsconfig.build.json')))
    .map((dir) => join(dir, 'tsconfig.build.json'));
}

/**
 * Builds the workspaces `dirs` (folders relative to the root) and what they reference, in one `tsc -b --verbose`,
 * then runs the `postbuild` script of each of `dirs` and of any other workspace tsc rebuilt. `onBuilding(dir)` is
 * called as tsc starts a project. Resolves `{ ok, built, errors, postbuildFailed }`: `built` the folders tsc built
 * (the rest were up to date), `errors` tsc's error lines, `postbuildFailed` the folders whose postbuild failed.
 */
export async function buildDirs(dirs, { root = ROOT, onBuilding = () => undefined } = {}) {
  const projects = dirs.filter((dir) => existsSync(join(root, dir, 'tsconfig.build.json')));
  const args = [TSC, '-b', ...projects.map((dir) => join(dir, 'tsconfig.build.json')), '--verbose'];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const built = [];
  let errors = '';
  // --verbose says "Building project '<path>'..." as each project starts: the progress, and what needs a postbuild.
  for await (const raw of createInterface({ input: child.stdout })) {
    const line = raw.replace(/^(?:\[[^\]]*\] |\d{1,2}:\d{2}:\d{2}(?: [AP]M)? - )/, '');
    const building = /^Building project '([^']+)'/.exec(line);
    if (building) {
      const dir = relative(root, building[1]).replace(/\/tsconfig\.build\.json$/, '');
      built.push(dir);
      onBuilding(dir);
      continue;
    }
    if (/error TS\d+/.test(line) || (errors && /^\s/.test(line))) errors += `${raw}\n`;
  }
  const code = await new Promise((done) => child.on('close', done));
  if (code !== 0) return { ok: false, built, errors: errors || `tsc -b exited with ${code}\n`, postbuildFailed: [] };
  const postbuildFailed = [...new Set([...dirs, ...built])].filter((dir) => !postbuild(root, dir));
  return { ok: postbuildFailed.length === 0, built, errors, postbuildFailed };
}

const NX = join(ROOT, 'node_modules/nx/bin/nx.js');
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC
const ANSI_COLOUR = /\x1b\[[0-9;]*m/g;

/**
 * `nx run-many -t build` (what `npm run build` runs), for the scripts that build first (npm test, npm run typecheck):
 * resolves `{ ok, output }`, `output` being Nx's summary (how many tasks, how many from its cache, what one tsc built)
 * when the build passed and everything it printed when it failed.
 */
export function nxBuild(root = ROOT) {
  const { status, stdout, stderr } = spawnSync(
    process.execPath,
    [NX, 'run-many', '-t', 'build', '--outputStyle=static'],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const output = `${stdout}${stderr}`.replace(ANSI_COLOUR, '');
  if (status !== 0) return { ok: false, output };
  const summary = output
    .split('\n')
    .filter((line) =>
      /one tsc -b over|^\s+building |Successfully ran target|Nx read the output from the cache/.test(line),
    )
    .map((line) => line.replace(/^\s*NX\s+/, '').trimEnd());
  return { ok: true, output: `${summary.join('\n')}\n` };
}

/** Runs `dir`'s npm `postbuild` script, if it has one; false when it failed (its output went to stderr). */
function postbuild(root, dir) {
  const script = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).scripts?.postbuild;
  if (!script) return true;
  const result = spawnSync('sh', ['-c', script], { cwd: join(root, dir), stdio: ['ignore', 2, 2] });
  if (result.status === 0) return true;
  process.stderr.write(`${dir}: postbuild failed (${script})\n`);
  return false;
}

async function main(argv) {
  const started = Date.now();
  const projects = buildProjects();
  if (argv.includes('--clean')) {
    // tsc refuses --clean with --verbose: the outputs of every project go, nothing is built.
    const { status } = spawnSync(process.execPath, [TSC, '-b', ...projects, '--clean'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    process.exit(status ?? 1);
  }
  const quiet = argv.includes('--quiet') && !process.stdout.isTTY;
  const dirs = projects.map((file) => file.replace(/\/tsconfig\.build\.json$/, ''));
  let count = 0;
  const result = await buildDirs(dirs, {
    onBuilding: (dir) => {
      if (!quiet) process.stdout.write(`[${++count}] ${dir}  (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    },
  });
  if (!result.ok) {
    process.stderr.write(result.errors);
    process.exit(1);
  }
  process.stdout.write(
    `built ${result.built.length} of ${projects.length} projects (${projects.length - result.built.length} up to date) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv.slice(2));
