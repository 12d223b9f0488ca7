/**
 * The managed browser's DevTools belong to this process alone. Over DevTools a client can open file:// URLs and read
 * whatever the browser's user (root here) may read; another local user (the exec sandbox's uid 65534) that reaches
 * them reads root's files. So Chromium listens on no TCP port (it is driven over an inherited pipe; its one Unix
 * socket, the profile singleton, sits in a 0700 folder of its own), and the attacker, run as uid 65534, finds no way in: not the profile's port, not a socket, not the pipe.
 */
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '@tool-search/kernel';
import { BROWSER_UID } from '../src/launcher.js';
import {
  browserProcesses,
  browserRun,
  canDropToNobody,
  chromiumMissing,
  listeningSockets,
  bwrapMissing,
  ok,
  processesWith,
  tempDir,
} from './helpers.js';

const CDP_PORT = 18858;
const SECRET = 'root-only secret 7f3a';
const runnable =
  !chromiumMissing('the DevTools access tests') &&
  canDropToNobody('the DevTools access tests') &&
  !bwrapMissing('the DevTools access tests');

let run: Run;
let stateDir: string;
let secretUrl: string;

beforeAll(async () => {
  if (!runnable) return;
  // A file only root can read (its folder is 0700), as /etc/shadow is.
  const secrets = tempDir('secret');
  chmodSync(secrets, 0o700);
  writeFileSync(join(secrets, 'secret.txt'), SECRET, { mode: 0o600 });
  secretUrl = pathToFileURL(join(secrets, 'secret.txt')).href;
  stateDir = tempDir('devtools');
  run = await browserRun({ browser: { profiles: { chrome: { cdpPort: CDP_PORT } } }, stateDir });
  ok(await run.call('browser', { action: 'start' }));
  ok(await run.call('browser', { action: 'open', targetUrl: 'about:blank' }));
}, 90_000);
afterAll(async () => {
  await run?.close();
});

describe.skipIf(!runnable)('the managed browser is reachable by this process only', () => {
  it('Chromium listens on no TCP port; its only Unix socket (the profile singleton) is in a 0700 folder', async () => {
    const userData = join(stateDir, 'profiles', 'chrome', 'user-data');
    const pids = processesWith(userData);
    expect(pids.length).toBeGreaterThan(0);
    const { ports, unixPaths } = listeningSockets(pids);
    expect(ports).toEqual([]);
    const status = ok(await run.call('browser', { action: 'status' }));
    expect(status).toMatchObject({ cdpPort: CDP_PORT, devtools: 'pipe' });
    expect(status.cdpUrl).toBeUndefined();
    for (const path of unixPaths) {
      const folder = statSync(dirname(path));
      expect({ path, mode: folder.mode & 0o777, uid: folder.uid }).toEqual({ path, mode: 0o700, uid: status.uid });
    }
  });

  it('as root, Chromium runs as its own unprivileged uid (not root, not 65534) with its own sandbox', async () => {
    const userData = join(stateDir, 'profiles', 'chrome', 'user-data');
    const status = ok(await run.call('browser', { action: 'status' }));
    expect(status).toMatchObject({ uid: BROWSER_UID });
    // Not the bwrap that started it: that one stays root, only waiting for Chromium to end.
    const chromium = processesWith(userData)
      .map((pid) => ({ pid, ...processInfo(pid) }))
      .filter((entry) => entry.program !== 'bwrap');
    expect(chromium.length).toBeGreaterThan(0);
    expect(chromium.filter((entry) => entry.uid !== BROWSER_UID)).toEqual([]);
    const renderers = chromium.filter((entry) => entry.type === 'renderer');
    expect(renderers.length).toBeGreaterThan(0);
    if (status.sandbox === true) expect(renderers.filter((entry) => entry.seccomp !== 2)).toEqual([]);
    else console.warn('Chromium runs without its own sandbox here (no user namespaces): the uid is the boundary');
  });

  it('uid 65534 cannot reach DevTools (port, socket or pipe) to read a root-only file', async () => {
    const userData = join(stateDir, 'profiles', 'chrome', 'user-data');
    const pids = processesWith(userData);
    const { ports, unixPaths } = listeningSockets(pids);
    const result = await attack(
      [...new Set([CDP_PORT, ...ports])],
      unixPaths,
      browserProcesses(userData).length ? browserProcesses(userData) : pids,
    );
    expect(result.tried.map((entry) => entry.via)).toContain(`tcp:${CDP_PORT}`);
    expect(result.read, JSON.stringify(result.tried)).toEqual([]);
  }, 60_000);
});

/** A process's program, real uid, seccomp mode and Chromium process type (from /proc). */
function processInfo(pid: number): { uid: number; seccomp: number; type: string; program: string } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  const type = /--type=([a-z-]+)/.exec(cmdline)?.[1] ?? 'browser';
  return {
    program: basename(cmdline.split('\0')[0] ?? ''),
    uid: Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]),
    seccomp: Number(/^Seccomp:\s+(\d+)/m.exec(status)?.[1]),
    type,
  };
}

interface AttackResult {
  tried: { via: string; outcome: string }[];
  read: { via: string; text?: string }[];
}

/** Runs the attacker fixture as uid 65534 and parses its one JSON line. */
async function attack(ports: number[], unixPaths: string[], pids: number[]): Promise<AttackResult> {
  const attacker = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'devtools-attacker.mjs');
  const args = [secretUrl, ports.join(','), unixPaths.join(','), pids.join(',')];
  const child = spawn(
    'setpriv',
    ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, attacker, ...args],
    { cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const line = output.split('\n').find((entry) => entry.startsWith('{'));
  if (code !== 0 || !line) throw new Error(`the attacker failed (${code}): ${output.slice(0, 2000)}`);
  return JSON.parse(line) as AttackResult;
}
