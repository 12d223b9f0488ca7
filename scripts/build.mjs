#!/usr/bin/env node
// `npm run build`: one `tsc -b` over every workspace's tsconfig.build.json (one process, one type-checker, each project
// built once in reference order, skipped when up to date), with a progress line per project, then each workspace's
// `postbuild` script (files tsc does not emit). Usage: node scripts/build.mjs [--quiet] [--clean]
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

async function main(argv) {
  const quiet = argv.includes('--quiet');
  const started = Date.now();
  const projects = buildProjects();
  const args = [TSC, '-b', ...projects, '--verbose', ...(argv.includes('--clean') ? ['--clean'] : [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let built = 0;
  let errors = '';
  const outOfDate = new Set();
  // --verbose says, per project, whether it is out of date, then "Building project '<path>'...": one progress line each.
  for await (const raw of createInterface({ input: child.stdout })) {
    const line = raw.replace(/^(?:\[[^\]]*\] |\d{1,2}:\d{2}:\d{2}(?: [AP]M)? - )/, '');
    const stale = /^Project '([^']+)' is out of date/.exec(line);
    if (stale) outOfDate.add(stale[1]);
    const building = /^Building project '([^']+)'/.exec(line);
    if (building) {
      built++;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (!quiet || process.stdout.isTTY)
        process.stdout.write(
          `[${built}/${outOfDate.size}] ${relative(ROOT, building[1]).replace(/\/tsconfig\.build\.json$/, '')}  (${seconds} s)\n`,
        );
      continue;
    }
    if (/error TS\d+/.test(line) || (errors && /^\s/.test(line))) errors += `${raw}\n`;
  }
  const code = await new Promise((done) => child.on('close', done));
  if (code !== 0) {
    process.stderr.write(errors || `tsc -b exited with ${code}\n`);
    process.exit(code ?? 1);
  }
  for (const dir of workspaceDirs(ROOT)) {
    const script = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')).scripts?.postbuild;
    if (!script) continue;
    const result = spawnSync('sh', ['-c', script], { cwd: join(ROOT, dir), stdio: 'inherit' });
    if (result.status !== 0) {
      process.stderr.write(`${dir}: postbuild failed (${script})\n`);
      process.exit(1);
    }
  }
  process.stdout.write(
    `built ${built} of ${projects.length} projects (${projects.length - built} up to date) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv.slice(2));
