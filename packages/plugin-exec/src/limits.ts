/**
 * `tools.exec.limits` applied to a command, and which one a finished command hit.
 *
 * - Outside (this machine, before bwrap): a launcher shell closes every file
 *   descriptor but stdio (and the seccomp fd), joins the command's pids cgroup
 *   when there is one, then execs bwrap (or the command, on the gateway host).
 * - Inside (before the command): `ulimit` sets RLIMIT_DATA, RLIMIT_CPU,
 *   RLIMIT_FSIZE and RLIMIT_NPROC. RLIMIT_NPROC is set inside because the
 *   kernel checks it per user namespace, up the chain; it does not hold for a
 *   command whose host uid is 0 (the kernel exempts root's user): a root
 *   gateway's sandboxed commands run as SANDBOX_UID, where it holds, and its
 *   gateway-host commands are bounded by a pids cgroup (v1 `pids` hierarchy or
 *   a v2 one with `pids` delegated) where it can make one.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ToolSearchError } from '@tool-search/kernel';
import { ExecErrors } from './errors.js';
import type { ExecResourceLimits } from './options.js';

export type LimitName = keyof ExecResourceLimits;

/** How `processes` is bounded here. */
export type ProcessBound = 'cgroup' | 'rlimit' | 'none';

/**
 * Closes inherited descriptors (all but 0-2 and $1), joins cgroup $2 (or "-"), execs the rest. With a gateway pid in
 * $3 (the gateway host: no bwrap to die with it), a watcher outlives neither the command nor the gateway: when the
 * gateway is gone (SIGKILL runs no shutdown) it kills the command's process group and what is left in its cgroup.
 */
const OUTER = [
  'keep=$1 cg=$2 gw=$3; shift 3',
  'for fd in /proc/$$/fd/*; do fd=${fd##*/}; case $fd in 0|1|2|"$keep") ;; *) eval "exec $fd>&-" 2>/dev/null ;; esac; done',
  '[ "$cg" = - ] || echo $$ > "$cg/cgroup.procs" || { echo "tool-search: could not join the process-limit group $cg" >&2; exit 125; }',
  'if [ "$gw" != - ]; then',
  // Polls at 50 ms, then slower up to once a second: a short command's watcher (in the cgroup, which is removed only
  // once empty) ends soon after it; a long one costs one `sleep` a second. A sleep without fractions falls back to 1.
  '  ( d=0.05',
  '    while kill -0 "$gw" 2>/dev/null && kill -0 $$ 2>/dev/null; do',
  '      sleep $d 2>/dev/null || sleep 1',
  '      case $d in 0.05) d=0.1 ;; 0.1) d=0.2 ;; 0.2) d=0.5 ;; *) d=1 ;; esac',
  '    done',
  '    if ! kill -0 "$gw" 2>/dev/null; then kill -KILL -$$; [ "$cg" = - ] || while read -r p; do kill -KILL "$p"; done < "$cg/cgroup.procs"; fi',
  '  ) </dev/null >/dev/null 2>&1 &',
  'fi',
  'exec "$@"',
].join('\n');

/**
 * argv that runs `file args` after closing inherited descriptors (keeping `keepFd`) and joining `cgroup`; with
 * `gateway` (this process's pid), the command is killed when this process dies.
 */
export function outerLauncher(
  shell: readonly string[],
  options: { keepFd?: number; cgroup?: string; gateway?: number },
  file: string,
  args: readonly string[],
): string[] {
  const { keepFd, cgroup, gateway } = options;
  return [
    ...shell,
    '-c',
    OUTER,
    'tool-search-launch',
    keepFd === undefined ? '-' : String(keepFd),
    cgroup ?? '-',
    gateway === undefined ? '-' : String(gateway),
    file,
    ...args,
  ];
}

/** argv that sets the rlimits, then execs `argv` (the command's own shell). */
export function innerLauncher(
  shell: readonly string[],
  limits: ExecResourceLimits,
  nproc: boolean,
  argv: readonly string[],
): string[] {
  // bash counts -d and -f in KiB; dash counts -f in 512-byte blocks.
  const fileBlocks = shell[0]!.endsWith('bash') ? limits.fileSizeMb * 1024 : limits.fileSizeMb * 2048;
  const script = [
    `ulimit -d ${limits.memoryMb * 1024}`,
    `ulimit -f ${fileBlocks}`,
    `ulimit -St ${limits.cpuSeconds}`,
    `ulimit -Ht ${limits.cpuSeconds + 2}`,
    ...(nproc ? [`ulimit -u ${limits.processes}`] : []),
    'exec "$@"',
  ].join(' && ');
  return [...shell, '-c', script, 'tool-search-limits', ...argv];
}

/** Per-command pids cgroups under one folder of this process, where the machine lets us make them. */
export class ProcessGroups {
  readonly bound: ProcessBound;
  private readonly root: string | undefined;

  constructor(private readonly limits: ExecResourceLimits) {
    this.root = findPidsRoot();
    this.bound = this.root ? 'cgroup' : process.getuid?.() === 0 ? 'none' : 'rlimit';
  }

  /** A fresh group for one command, capped at `processes`; undefined where there are no cgroups for us. */
  create(): string | undefined {
    if (!this.root) return undefined;
    const dir = join(this.root, `cmd-${randomUUID()}`);
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pids.max'), String(this.limits.processes));
    } catch (cause) {
      throw new ToolSearchError(
        ExecErrors.EXEC_SANDBOX_SETUP_FAILED,
        `exec could not make the command's process-limit group ${dir}; nothing ran`,
        { cause },
      );
    }
    return dir;
  }

  /** Removes this process's folder of groups (at shutdown, once every command is gone). */
  async close(): Promise<void> {
    if (this.root) await ProcessGroups.remove(this.root);
  }

  /** The pids in a group (to kill what is left of a command). */
  static members(dir: string): number[] {
    try {
      return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  }

  /** Whether the group refused a fork (pids.events `max` > 0). */
  static hitMax(dir: string): boolean {
    try {
      return Number(/^max (\d+)/m.exec(readFileSync(join(dir, 'pids.events'), 'utf8'))?.[1] ?? 0) > 0;
    } catch {
      return false;
    }
  }

  /** Removes an empty group (its processes are gone); retried briefly, as the last exits are reaped asynchronously. */
  static async remove(dir: string): Promise<void> {
    // Up to 5 s in steps of 25 ms (a short command's watcher leaves within ~50 ms of it).
    for (let attempt = 0; attempt < 200; attempt++) {
      try {
        rmdirSync(dir);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  }
}

/** A folder for this process's groups in a writable pids hierarchy (v1, or v2 with pids enabled), if there is one. */
function findPidsRoot(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const mounts = readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' '));
    const own = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .map((line) => line.split(':'));
    const candidates: string[] = [];
    const v1 = mounts.find(([, , type, options]) => type === 'cgroup' && options?.split(',').includes('pids'));
    const v1Path = own.find(([, controllers]) => controllers?.split(',').includes('pids'))?.[2];
    if (v1?.[1] && v1Path !== undefined) candidates.push(join(v1[1], v1Path));
    const v2 = mounts.find(([, , type]) => type === 'cgroup2');
    const v2Path = own.find(([id]) => id === '0')?.[2];
    if (v2?.[1] && v2Path !== undefined) candidates.push(join(v2[1], v2Path));
    for (const base of candidates) {
      removeStale(base);
      const dir = join(base, `tool-search-exec-${process.pid}-${randomUUID().slice(0, 8)}`);
      try {
        mkdirSync(dir);
        if (existsSync(join(dir, 'pids.max'))) return dir;
        rmdirSync(dir);
      } catch {
        // not writable for us: try the next
      }
    }
  } catch {
    // no /proc
  }
  return undefined;
}

/** Folders left by a gateway that was killed (SIGKILL runs no shutdown): their processes are gone, the folders are empty. */
function removeStale(base: string): void {
  try {
    for (const name of readdirSync(base)) {
      const pid = Number(/^tool-search-exec-(\d+)-/.exec(name)?.[1]);
      if (!pid || pid === process.pid || alive(pid)) continue;
      const dir = join(base, name);
      for (const group of readdirSync(dir)) if (group.startsWith('cmd-')) rmdirQuietly(join(dir, group));
      rmdirQuietly(dir);
    }
  } catch {
    // not readable: nothing to tidy
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function rmdirQuietly(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // still in use (a process left in it) or gone
  }
}

export interface LimitHit {
  readonly code: typeof ExecErrors.EXEC_LIMIT_EXCEEDED;
  readonly limit: LimitName;
  readonly value: number;
  readonly message: string;
}

const UNIT: Record<LimitName, string> = {
  processes: '',
  memoryMb: ' MiB',
  cpuSeconds: ' s',
  fileSizeMb: ' MiB',
  tmpMb: ' MiB',
};

/** Which limit a finished command ran into, read from how it ended and what it printed. */
export function limitHit(
  limits: ExecResourceLimits,
  end: { output: string; exitCode: number | null; signal: string | null; pidsMax: boolean; sandboxed: boolean },
): LimitHit | undefined {
  const { output } = end;
  const name = ((): LimitName | undefined => {
    if (
      end.pidsMax ||
      /fork: (retry: )?Resource temporarily unavailable|Cannot fork|can't fork|fork failed|BlockingIOError: \[Errno 11\]|spawn EAGAIN/i.test(
        output,
      )
    )
      return 'processes';
    if (end.signal === 'SIGXCPU' || end.exitCode === 128 + 24 || /CPU time limit exceeded/.test(output))
      return 'cpuSeconds';
    if (end.signal === 'SIGXFSZ' || end.exitCode === 128 + 25 || /File size limit exceeded|File too large/.test(output))
      return 'fileSizeMb';
    if (end.sandboxed && /No space left on device/.test(output)) return 'tmpMb';
    if (/Cannot allocate memory|MemoryError|Array buffer allocation failed|out of memory|std::bad_alloc/i.test(output))
      return 'memoryMb';
    return undefined;
  })();
  if (!name) return undefined;
  const value = limits[name];
  return {
    code: ExecErrors.EXEC_LIMIT_EXCEEDED,
    limit: name,
    value,
    message: `the command reached tools.exec.limits.${name} (${value}${UNIT[name]})`,
  };
}
