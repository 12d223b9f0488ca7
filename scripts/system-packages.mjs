// The Debian packages some tests need. Without them those tests skip, each printing
// "skipping …: <binary> is not installed (apt-get install -y <package>)"; `.ci/run` installs them so CI runs everything.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, existsSync } from 'node:fs';
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
]);

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
