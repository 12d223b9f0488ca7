/**
 * A Chromium left running on a profile: one this process does not drive (its host crashed, or someone started a
 * browser on the profile's folder, e.g. with the profile's port). It holds the profile's `SingletonLock`, so a new
 * browser cannot start on it, and `reset-profile` must not wipe the folder under it.
 *
 * Only a process that really is the profile's Chromium is stopped. The lock (`<host>-<pid>`, which Chromium writes)
 * names the candidate; it is believed only when the kernel's own records agree: the process runs as the profile's
 * browser user (real, effective, saved and filesystem uid; under a root host that is Chromium's own uid, never root),
 * it is a browser process (no `--type=`), its command line names this very user-data folder, and it listens on the
 * profile's `SingletonSocket` (the proof Chromium itself asks of a lock's holder). A lock pointing at any other
 * process (another user's, a shell, the host, one that merely names the folder) is ignored.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { ToolSearchError } from '@tool-search/kernel';
import { BrowserErrors } from './errors.js';

export interface ProfileProcessQuery {
  readonly userDataDir: string;
  /** The uid the profile's Chromium runs as. */
  readonly uid: number;
}

/** How long a stopped Chromium may take to go (it is SIGKILLed: this is the kernel tearing it down). */
const GONE_WAIT_MS = 10_000;

/** The pid of the Chromium that holds the profile, when one runs and is really that profile's. */
export function findLeftover(query: ProfileProcessQuery): number | undefined {
  const pid = lockPid(query.userDataDir);
  return pid !== undefined && isProfileChromium(pid, query) ? pid : undefined;
}

/** Stops the profile's left-over Chromium (and its helper processes); the pids stopped. */
export async function stopLeftover(query: ProfileProcessQuery): Promise<number[]> {
  const pid = findLeftover(query);
  if (pid === undefined) return [];
  // Its helpers (zygote, renderers) as they are now: they would go with it, this makes sure they do.
  const helpers = descendants(pid).filter((child) => uids(child)?.every((uid) => uid === query.uid));
  for (const target of [pid, ...helpers]) signal(target);
  const deadline = Date.now() + GONE_WAIT_MS;
  while ([pid, ...helpers].some(alive)) {
    if (Date.now() > deadline)
      throw new ToolSearchError(
        BrowserErrors.BROWSER_ACTION_FAILED,
        `the Chromium left running on ${query.userDataDir} (pid ${pid}) did not stop`,
        { details: { pid, rule: 'leftover-browser' } },
      );
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
  }
  return [pid, ...helpers];
}

/** The pid `SingletonLock` names, when it names one on this host. */
function lockPid(userDataDir: string): number | undefined {
  let target: string;
  try {
    target = readlinkSync(join(userDataDir, 'SingletonLock'));
  } catch {
    return undefined; // no lock: no Chromium holds the profile
  }
  const match = /^(.*)-(\d+)$/.exec(target);
  if (!match || match[1] !== hostname()) return undefined;
  const pid = Number(match[2]);
  return pid > 1 && pid !== process.pid ? pid : undefined;
}

function isProfileChromium(pid: number, query: ProfileProcessQuery): boolean {
  const ids = uids(pid);
  if (!ids || !ids.every((uid) => uid === query.uid)) return false;
  const args = argv(pid);
  if (!args || args.some((arg) => arg.startsWith('--type='))) return false;
  const wanted = resolve(query.userDataDir);
  const namesFolder = args.some((arg) => {
    if (!arg.startsWith('--user-data-dir=')) return false;
    const dir = arg.slice('--user-data-dir='.length);
    return isAbsolute(dir) && resolve(dir) === wanted;
  });
  return namesFolder && listensOnSingletonSocket(pid, query.userDataDir);
}

/** True when `pid` holds the listening Unix socket `SingletonSocket` points to (in its own network namespace). */
function listensOnSingletonSocket(pid: number, userDataDir: string): boolean {
  let path: string;
  try {
    path = readlinkSync(join(userDataDir, 'SingletonSocket'));
  } catch {
    return false; // no socket named: nothing proves the lock
  }
  const inodes = socketInodes(pid);
  // /proc/<pid>/net/unix: Num RefCount Protocol Flags(00010000 = listening) Type St Inode Path
  return procLines(`/proc/${pid}/net/unix`).some(
    (fields) => fields[3] === '00010000' && fields[7] === path && inodes.has(fields[6] ?? ''),
  );
}

function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  let fds: string[] = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes; // gone, or not ours to read
  }
  for (const fd of fds) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

function procLines(file: string): string[][] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.trim().split(/\s+/));
  } catch {
    return []; // gone
  }
}

/** Real, effective, saved and filesystem uid (from the kernel, which the process cannot change to look like another). */
function uids(pid: number): number[] | undefined {
  try {
    const line = /^Uid:\s+(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return line?.trim().split(/\s+/).map(Number);
  } catch {
    return undefined; // gone, or not ours to read
  }
}

function argv(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return undefined; // gone
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const line = /^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return line === undefined ? undefined : Number(line);
  } catch {
    return undefined; // gone
  }
}

function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  for (let queue = [root]; queue.length; ) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Running (a zombie has stopped: only its parent's wait is left). */
function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
