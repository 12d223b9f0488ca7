/**
 * `reset-profile` and `delete-profile` remove a folder that belongs to the user Chromium runs as (uid 65533 under a
 * root host). A process of that user (a compromised browser leaves one behind) swaps a folder inside it for a symlink
 * to a root-owned folder while the removal walks it: Node's `rmSync`, running as root, followed the link and deleted
 * the outside folder (1 round in 25). The removal now never follows a link it meets.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserErrors } from '../src/errors.js';
import { BROWSER_UID } from '../src/launcher.js';
import { browserRun, chromiumMissing, tempDir } from './helpers.js';

const CAN_DROP = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
if (!CAN_DROP)
  console.warn(
    'skipping the profile removal race: it needs root to run the racer as uid 65533 with setpriv (util-linux)',
  );

const ROUNDS = 300;
const FOLDERS = 'abcdefgh';
const VICTIMS = 20;

/** Toggles each folder of the user data with a symlink to `outside`, between a `go` and a `stop` from the test. */
const RACER = `
const { renameSync, symlinkSync, unlinkSync } = require('node:fs');
const [dir, outside] = process.argv.slice(1);
let racing = false;
const swap = () => {
  for (let i = 0; racing && i < 20; i++)
    for (const d of ${JSON.stringify(FOLDERS)}) {
      const at = dir + '/' + d;
      try { renameSync(at, at + '.real'); symlinkSync(outside, at); unlinkSync(at); renameSync(at + '.real', at); } catch {}
    }
  if (racing) setImmediate(swap); else process.send('stopped');
};
process.on('message', (m) => { if (m === 'go') { racing = true; process.send('going'); swap(); } else if (m === 'stop') racing = false; });
process.send('ready');`;

let racer: ChildProcess | undefined;
afterAll(() => racer?.kill());

/** Sends `message` to the racer and waits for its `answer`. */
async function tell(message: string, answer: string): Promise<void> {
  const answered = new Promise<void>((resolve) => {
    const on = (m: unknown) => m === answer && (racer!.off('message', on), resolve());
    racer!.on('message', on);
  });
  racer!.send(message);
  await answered;
}

const NO_CHROMIUM = chromiumMissing('the profile removal race (it starts the browser)');

describe.skipIf(!CAN_DROP || NO_CHROMIUM)('profile removal against a browser user swapping in symlinks (root)', () => {
  it(`reset-profile deletes nothing outside the profile in ${ROUNDS} rounds`, async () => {
    const stateDir = tempDir('profile-removal');
    // The racer reaches the user data as Chromium does (inside its namespace the path is passable).
    chmodSync(stateDir, 0o755);
    const userData = join(stateDir, 'profiles', 'chrome', 'user-data');
    const outside = join(stateDir, 'outside');
    mkdirSync(outside, { mode: 0o755 });
    for (let i = 0; i < VICTIMS; i++) writeFileSync(join(outside, `victim${i}`), 'root only');
    const run = await browserRun({ stateDir });
    racer = spawn(
      'setpriv',
      [
        `--reuid=${BROWSER_UID}`,
        `--regid=${BROWSER_UID}`,
        '--clear-groups',
        process.execPath,
        '-e',
        RACER,
        userData,
        outside,
      ],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    await once(racer, 'message');
    let round = 0;
    const codes = new Set<string>();
    for (; round < ROUNDS && victims(outside) === VICTIMS; round++) {
      userTree(userData);
      await tell('go', 'going');
      const outcome = await run.call('browser', { action: 'reset-profile', name: 'chrome' });
      await tell('stop', 'stopped');
      // The racer adds links while the folder is removed: the removal may fail (coded), never reach outside.
      if (outcome.status === 'error') codes.add(outcome.error.code);
      spawnSync('rm', ['-rf', '--', userData]);
    }
    expect(victims(outside)).toBe(VICTIMS);
    expect(round).toBe(ROUNDS);
    expect([...codes].filter((code) => code !== BrowserErrors.BROWSER_ACTION_FAILED)).toEqual([]);
  }, 300_000);
});

function victims(outside: string): number {
  return existsSync(outside) ? readdirSync(outside).filter((name) => name.startsWith('victim')).length : 0;
}

/** The user data as Chromium leaves it: folders of files, all the browser user's. */
function userTree(userData: string): void {
  mkdirSync(userData, { recursive: true });
  chmodSync(join(userData, '..'), 0o755);
  chmodSync(join(userData, '..', '..'), 0o755);
  chownSync(userData, BROWSER_UID, BROWSER_UID);
  for (const d of FOLDERS) {
    mkdirSync(join(userData, d));
    chownSync(join(userData, d), BROWSER_UID, BROWSER_UID);
    for (let i = 0; i < 30; i++) writeFileSync(join(userData, d, `f${i}`), '');
  }
}
