/**
 * Ending a stdio server's whole process group: SIGTERM, then SIGKILL after a
 * grace period, then waiting until no member is left. `sh -c` wrappers,
 * `npm exec` and grandchildren share the group, so none outlives `close()`.
 * Liveness ignores zombies: an orphan that PID 1 never reaps is dead.
 */
import { readdirSync, readFileSync } from 'node:fs';

const POLL_MS = 25;
/** After SIGKILL a process dies at once; this only bounds a wait on an unkillable (D-state) member. */
const AFTER_KILL_WAIT_MS = 2_000;

const live = new Set<number>();
let exitHookInstalled = false;

/** Remembers a group so that an exiting parent still kills it (synchronously, on `process.exit`). */
export function trackGroup(pgid: number): void {
  live.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of live) signalGroup(group, 'SIGKILL');
  });
}

/** TERM, wait up to `graceMs` for the group to empty, KILL, wait again (bounded). */
export async function endProcessGroup(pgid: number, graceMs: number): Promise<void> {
  if (signalGroup(pgid, 'SIGTERM')) {
    if (!(await waitUntilEmpty(pgid, graceMs))) {
      signalGroup(pgid, 'SIGKILL');
      await waitUntilEmpty(pgid, AFTER_KILL_WAIT_MS);
    }
  }
  live.delete(pgid);
}

/** Pids of the group's members that are still running (not zombies). */
export function groupMembers(pgid: number): number[] {
  if (process.platform !== 'linux') return signalGroup(pgid, 0) ? [pgid] : [];
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') members.push(Number(entry));
  }
  return members;
}

/** Whether a process is running; a zombie is not (Linux: from /proc, elsewhere `kill(pid, 0)`). */
export function isRunning(pid: number): boolean {
  if (process.platform === 'linux') {
    const stat = procStat(pid);
    return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function procStat(pid: number): { state: string; pgrp: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: read after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilEmpty(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (groupMembers(pgid).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
