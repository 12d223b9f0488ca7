/**
 * The Debian packages some tests need (`.ci/run` installs them). Where one is missing the tests that need it skip, and
 * each says so in one line naming the `apt-get install` that makes it run: a fresh machine still ends green.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type SystemPackage = 'bubblewrap' | 'redis-server' | 'chromium';

/** The program each package provides (Chromium may be on PATH under another name). */
const PROGRAMS: Readonly<Record<SystemPackage, readonly string[]>> = Object.freeze({
  bubblewrap: ['bwrap'],
  'redis-server': ['redis-server'],
  chromium: ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'],
});

/** Whether the package's program is an executable file on PATH (`env.PATH`). */
export function systemProgramOnPath(pkg: SystemPackage, env: NodeJS.ProcessEnv = process.env): boolean {
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  return dirs.some((dir) => PROGRAMS[pkg].some((name) => isExecutable(join(dir, name))));
}

/** The Chromium a browser test drives: `CHROMIUM_PATH`, else the first one on PATH (as the product finds it). */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const dir of dirs)
    for (const name of PROGRAMS.chromium) if (isExecutable(join(dir, name))) return join(dir, name);
  return undefined;
}

/** Prints the one line a skipped test leaves: what skips, why, and the `apt-get install` that makes it run. */
export function noteSkipped(what: string, pkg: SystemPackage, why = `${PROGRAMS[pkg][0]} is not installed`): void {
  console.warn(`skipping ${what}: ${why} (apt-get install -y ${pkg})`);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
