// The Debian packages some tests need. Without them those tests skip, each printing
// "skipping …: <binary> is not installed (apt-get install -y <package>)"; `.ci/run` installs them so CI runs everything.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export const SYSTEM_PACKAGES = Object.freeze([
  {
    name: 'bubblewrap',
    binary: 'bwrap',
    why: 'the sandbox tests of @tool-search/plugin-exec (and the exec tools of e2e)',
  },
  {
    name: 'redis-server',
    binary: 'redis-server',
    why: 'the Redis runs of the shared-state tests (state, preset, cron, mcp-server, e2e replicas)',
  },
  {
    name: 'chromium',
    binary: 'chromium',
    why: 'the browser, diffs and inspect-page tests (plugin-browser, plugin-diffs, inspect, gateway, preset, cli)',
  },
]);

// A test that needs one of them says so in its skip line ("… (apt-get install -y <package>)"), in its own file or in
// a helper it imports from its own folder; these marks find them (the fresh-machine test runs exactly those files).
const NEEDS_MARK =
  /apt-get install -y (?:bubblewrap|redis-server|chromium)|\bnoteSkipped\(|\bredisServerAvailable\(|\bstateBackends\b/;

/** The test files (absolute paths) that need a Debian package of SYSTEM_PACKAGES, directly or through a local helper. */
export function testFilesNeedingSystemPackages(root, exclude = []) {
  const folders = ['e2e/test', ...readdirSync(join(root, 'packages')).map((dir) => `packages/${dir}/test`)];
  return folders
    .map((folder) => join(root, folder))
    .filter((folder) => existsSync(folder))
    .flatMap((folder) => {
      const sources = readdirSync(folder).filter((name) => /\.(?:ts|mjs)$/.test(name));
      const marked = new Set(sources.filter((name) => NEEDS_MARK.test(readFileSync(join(folder, name), 'utf8'))));
      return sources
        .filter((name) => name.endsWith('.test.ts') && !exclude.includes(name))
        .filter((name) => marked.has(name) || localImports(join(folder, name)).some((local) => marked.has(local)))
        .map((name) => join(folder, name));
    });
}

/** The names of the sibling files a test imports (`./helpers.js` → `helpers.ts`). */
function localImports(file) {
  const imports = readFileSync(file, 'utf8').matchAll(/from '\.\/([\w.-]+)\.(?:js|mjs|ts)'/g);
  return [...imports].flatMap(([, base]) => [`${base}.ts`, `${base}.mjs`]);
}

const runs = (binary, env) => spawnSync(binary, ['--version'], { stdio: 'ignore', env }).status === 0;

/** The entries of SYSTEM_PACKAGES whose binary does not run here. */
export function missingSystemPackages(env = process.env) {
  return SYSTEM_PACKAGES.filter(({ binary }) => !runs(binary, env));
}

/**
 * A PATH like `path` where the given binaries are absent: a folder of symlinks to everything else on it. Simulates a
 * fresh machine without those Debian packages (the fresh-machine test).
 */
export function pathWithout(binaries, folder, path = process.env.PATH ?? '') {
  mkdirSync(folder, { recursive: true });
  for (const dir of path.split(':').filter((d) => d && existsSync(d))) {
    let entries = [];
    try {
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (binaries.includes(entry) || existsSync(join(folder, entry))) continue;
      try {
        symlinkSync(join(dir, entry), join(folder, entry));
      } catch {
        // a name seen twice (or a dangling entry): the first on PATH wins, as in a shell
      }
    }
  }
  return folder;
}
