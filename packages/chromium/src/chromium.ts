/**
 * The system Chromium the browser tools drive (Debian's `chromium`; never a browser download): where it is, and the
 * flags for a quiet headless automation browser.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Executable names tried on PATH, in order. */
export const CHROMIUM_CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'] as const;

/** Headless, no sandbox (hosts run it as root), no GPU, no QUIC, no first-run, no background or sync traffic. */
export const CHROMIUM_FLAGS: readonly string[] = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/**
 * The Chromium to run: `executablePath` when it is an executable file (the `setting` names where it came from in the
 * message), else the first candidate on PATH; else why not, saying what to install or set.
 */
export function findChromium(
  executablePath: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  setting = 'executablePath',
): { path: string } | { missing: string } {
  if (executablePath) {
    return isExecutable(executablePath)
      ? { path: executablePath }
      : { missing: `${setting} (${executablePath}) is not an executable file` };
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of CHROMIUM_CANDIDATES) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return { path: candidate };
    }
  }
  return {
    missing: `no Chromium on PATH (${CHROMIUM_CANDIDATES.join(', ')}); install one (Debian package chromium) or set ${setting}`,
  };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
