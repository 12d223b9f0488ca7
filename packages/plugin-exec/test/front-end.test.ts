// The exec plugin in a real front-end process: what that process inherited from its own parent never reaches a
// command, and a SIGKILLed front end leaves no sandbox or command behind, run by root and by an unprivileged user
// (setpriv to uid 65534, where the tests run as root). Uses the built package (see the fixture).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, execEnv, OPEN, processRunning, SANDBOX_RUNS } from './fixtures.js';

const PIDS = '/sys/fs/cgroup/pids';
/** `nobody`: the front end runs as this user too when the tests run as root and setpriv is here. */
const UNPRIVILEGED = 65534;
const CAN_DROP = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
if (!CAN_DROP)
  console.warn(
    'skipping the unprivileged SIGKILL front-end tests: they need root to drop to uid 65534 with setpriv (util-linux)',
  );

const HERE = dirname(fileURLToPath(import.meta.url));
const FRONT_END = join(HERE, 'fixtures', 'front-end.mjs');
const DIST = join(HERE, '..', 'dist', 'limits.js');
const built = existsSync(DIST);
if (!built)
  console.log(
    'skipping front-end tests: packages/plugin-exec/dist is missing or predates the limits; run `npx tsc -b packages/plugin-exec/tsconfig.build.json`',
  );

const started: ChildProcess[] = [];
const folders: string[] = [];
afterEach(closeAll);
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts the front end with three extra inherited pipes (fds 3-5, as a supervisor or a build tool would leave them). */
async function frontEnd(
  host: string,
  calls: object[],
  uid?: number,
): Promise<{ child: ChildProcess; lines: string[] }> {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'plugin-exec-fe-')));
  folders.push(ws);
  const argv = [FRONT_END, ws, host, JSON.stringify(calls)];
  // A root front end's sandbox runs as uid 65534 too: the workspace is that user's, as the preset makes it.
  if (uid !== undefined || process.getuid?.() === 0) chownSync(ws, uid ?? UNPRIVILEGED, uid ?? UNPRIVILEGED);
  // setpriv execs node in place: the pid stays the front end's own.
  const [file, args] =
    uid === undefined
      ? [process.execPath, argv]
      : ['setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', process.execPath, ...argv]];
  const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  const deadline = Date.now() + 60_000;
  while (!out.includes('READY\n') && child.exitCode === null && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  if (!out.includes('READY\n')) throw new Error(`the front end did not get ready: ${out}${err}`);
  return { child, lines: out.split('\n').filter((line) => line && line !== 'READY') };
}

describe.skipIf(!built || !SANDBOX_RUNS)('a front end with inherited descriptors', () => {
  for (const host of ['sandbox', 'gateway']) {
    it(`a command on host ${host} has only stdin, stdout and stderr open`, async () => {
      const { lines } = await frontEnd(host, [{ command: 'ls /proc/$$/fd; true' }]);
      const result = JSON.parse(lines[0]!) as { output: string; host: string };
      expect(result.host).toBe(host);
      expect(result.output.trim().split('\n')).toEqual(['0', '1', '2']);
    });
  }
});

describe.skipIf(!built || !SANDBOX_RUNS)('the file tools and a sandboxed command share the workspace', () => {
  for (const uid of CAN_DROP ? [undefined, UNPRIVILEGED] : [undefined]) {
    const who = uid === undefined ? `this process (uid ${process.getuid?.()})` : `uid ${uid}`;
    it(`a front end run by ${who}: write, then exec sed -i, then read sees the change`, async () => {
      const { lines } = await frontEnd(
        'sandbox',
        [
          { write: 'notes/a.txt', content: 'old text\n' },
          { command: "sed -i 's/old/new/' notes/a.txt && echo added >> notes/a.txt && stat -c %u notes/a.txt" },
          { read: 'notes/a.txt' },
        ],
        uid,
      );
      const [, exec, read] = lines.map((line) => JSON.parse(line));
      expect(exec).toMatchObject({ host: 'sandbox', exitCode: 0, output: `${UNPRIVILEGED}\n` });
      expect(read).toEqual({ content: 'new text\nadded\n' });
    });
  }
});

describe.skipIf(!built || !SANDBOX_RUNS)('SIGKILL of the front end', () => {
  for (const [host, base, uid] of [
    ['sandbox', 81, undefined],
    ['gateway', 85, undefined],
    ...(CAN_DROP
      ? ([
          ['sandbox', 71, UNPRIVILEGED],
          ['gateway', 75, UNPRIVILEGED],
        ] as const)
      : []),
  ] as const) {
    const who = uid === undefined ? '' : ` run by uid ${uid}`;
    it(`leaves no command behind on host ${host}${who} (background and yielded commands${host === 'sandbox' ? ', and no bwrap' : ''})`, async () => {
      const marker = `9${process.pid}`;
      const markers = [base, base + 1, base + 2, base + 3].map((n) => `sleep ${n}.${marker}`);
      const [a, b, c, d] = markers as [string, string, string, string];
      const calls = [
        { command: a, background: true },
        { command: `${b} & ${c}`, background: true },
        { command: d, yieldMs: 200 },
      ];
      const { child } = await frontEnd(host, calls, uid);
      const deadline = Date.now() + 30_000;
      const all = async () => (await Promise.all(markers.map((m) => processRunning(m)))).every(Boolean);
      while (!(await all()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await all()).toBe(true);
      child.kill('SIGKILL');
      const gone = async () => !(await Promise.all(markers.map((m) => processRunning(m)))).some(Boolean);
      const until = Date.now() + 30_000;
      while (!(await gone()) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await gone()).toBe(true);
      // Its empty process-limit groups (where it made any) are tidied by the next plugin on this machine.
      const groups = () =>
        existsSync(PIDS) ? readdirSync(PIDS).filter((name) => name.startsWith(`tool-search-exec-${child.pid}-`)) : [];
      if (child.exitCode === null && child.signalCode === null)
        await new Promise((resolve) => child.once('exit', resolve));
      for (let attempt = 0; attempt < 20 && groups().length; attempt++) {
        execEnv({ exec: OPEN }); // the last of a killed command's processes may still be exiting: try again
        if (groups().length) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(groups()).toEqual([]);
    });
  }
});
