#!/usr/bin/env node
// Packs every public workspace package into one folder, as a release would publish them (after `npm run build`):
//   node scripts/pack-all.mjs <folder>      then, in another project: npm install <folder>/*.tgz
// Until the packages are on npm this is how to install them from a checkout; e2e/test/packed.test.ts uses it too.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { publicPackages } from './check-packages.mjs';

/** Runs `npm pack` for every public package of `root` into `dest`; resolves to npm's JSON report (name, filename, files). */
export async function packAll(root, dest, env = process.env) {
  mkdirSync(dest, { recursive: true });
  const workspaces = publicPackages(root).flatMap(({ dir }) => ['-w', dir]);
  const { stdout } = await promisify(execFile)(
    'npm',
    ['pack', '--json', '--pack-destination', resolve(dest), ...workspaces],
    { cwd: root, env, maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(stdout);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dest = process.argv[2];
  if (!dest) throw new Error('usage: node scripts/pack-all.mjs <folder>');
  const packed = await packAll('.', dest);
  for (const { filename } of packed) console.log(resolve(dest, filename));
  console.error(`packed ${packed.length} packages; install them with: npm install ${resolve(dest)}/*.tgz`);
}
