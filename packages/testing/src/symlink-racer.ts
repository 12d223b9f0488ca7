/**
 * The attacker of the path-confinement race tests: a process inside a
 * workspace (what a concurrent `exec` could run) swapping a folder for a
 * symlink to outside as fast as it can, while a tool reads or writes below that
 * folder. A check-then-open implementation gets redirected between its steps;
 * the fd-relative walk of `@tool-search/workspace` must never be.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RACER = `
const { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } = require('node:fs');
const [ws, outside, folder, parked, insideName, insideText] = process.argv.slice(1);
const d = ws + '/' + folder, park = ws + '/' + parked;
process.send('ready');
for (;;) {
  try { renameSync(d, park); rmSync(park, { recursive: true, force: true }); } catch {}
  try { symlinkSync(outside, d); } catch {}
  try { unlinkSync(d); } catch {}
  try { mkdirSync(d); if (insideName) writeFileSync(d + '/' + insideName, insideText); } catch {}
}`;

export interface SymlinkRacer {
  /** Kills the racer (idempotent). */
  stop(): void;
}

export interface SymlinkRacerOptions {
  /** The folder it swaps, relative to the workspace (default `d`). */
  readonly folder?: string;
  /** Where it moves the real folder before deleting it, relative to the workspace (default `parked`). */
  readonly parked?: string;
  /** A file it writes into each fresh real folder, so the inside has a file of the same name too. */
  readonly insideFile?: { readonly name: string; readonly text: string };
  /** Run it as this user (through `setpriv`, which needs root): an unprivileged agent racing a root gateway. */
  readonly uid?: number;
}

/**
 * Starts the racer on `<workspace>/<folder>` pointing at `outside`, resolved once it is swapping.
 * Stop it in `afterEach` too, so a failed test does not leave it running.
 */
export async function startSymlinkRacer(
  workspace: string,
  outside: string,
  options: SymlinkRacerOptions = {},
): Promise<SymlinkRacer> {
  const args = [
    workspace,
    outside,
    options.folder ?? 'd',
    options.parked ?? 'parked',
    options.insideFile?.name ?? '',
    options.insideFile?.text ?? '',
  ];
  const node = [process.execPath, '-e', RACER, ...args];
  const [file, argv] =
    options.uid === undefined
      ? [node[0]!, node.slice(1)]
      : ['setpriv', [`--reuid=${options.uid}`, `--regid=${options.uid}`, '--clear-groups', ...node]];
  const child = spawn(file, argv, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((resolve, reject) =>
    child
      .once('message', resolve)
      .once('exit', (code) => reject(new Error(`the symlink racer exited before it started (${code})`))),
  );
  return { stop: () => child.kill('SIGKILL') };
}

/** A workspace and an outside folder for a race test: fresh temporary folders, real paths (no symlinked tmp). */
export function raceFolders(prefix: string): { readonly workspace: string; readonly outside: string } {
  return {
    workspace: realpathSync(mkdtempSync(join(tmpdir(), `${prefix}-ws-`))),
    outside: realpathSync(mkdtempSync(join(tmpdir(), `${prefix}-out-`))),
  };
}
