/**
 * One running command: a child process in its own process group (so a kill
 * reaches everything it started), its bounded output, and how it ended. A
 * timeout or a kill sends SIGTERM to the group, then SIGKILL after a grace.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { limitHit, ProcessGroups, type LimitHit } from './limits.js';
import type { ExecResourceLimits } from './options.js';
import { BoundedOutput } from './output.js';

export type SessionStatus = 'running' | 'exited' | 'killed' | 'timeout' | 'failed';

export interface SpawnSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Bytes written to the child's fd 3 and closed (the sandbox's seccomp program). */
  readonly fd3?: Buffer;
  /** The command's pids cgroup (already capped), removed once the command is over. */
  readonly cgroup?: string;
  /** The limits the command runs under, to name the one it hit. */
  readonly limits?: ExecResourceLimits;
  readonly sandboxed?: boolean;
}

const KILL_GRACE_MS = 1000;

export class ExecSession {
  readonly id = randomUUID();
  readonly output = new BoundedOutput();
  status: SessionStatus = 'running';
  exitCode: number | null = null;
  signal: string | null = null;
  error: string | undefined;
  /** Moved to the background: listed by `process` until cleared. */
  backgrounded = false;
  /** The tools.exec.limits entry the command ran into, if any (known once it ended). */
  limit: LimitHit | undefined;
  /** Absolute output position the last poll returned up to. */
  pollCursor = 0;
  readonly exited: Promise<void>;
  private readonly child: ChildProcess;
  private readonly timer: NodeJS.Timeout;
  private stopping: SessionStatus | undefined;
  private readonly sandboxed: boolean;
  private readonly cgroup: string | undefined;

  constructor(
    readonly agent: string,
    readonly command: string,
    spec: SpawnSpec,
  ) {
    this.sandboxed = spec.sandboxed === true;
    this.cgroup = spec.cgroup;
    const stdio: ('pipe' | 'ignore')[] = spec.fd3 ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'];
    this.child = spawn(spec.file, [...spec.args], { cwd: spec.cwd, env: { ...spec.env }, detached: true, stdio });
    const fd3 = this.child.stdio[3] as Writable | null | undefined;
    if (spec.fd3 && fd3) fd3.on('error', () => undefined).end(spec.fd3);
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.output.append(chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.output.append(chunk));
    this.child.stdin?.on('error', () => undefined); // writing to a process that exited is not our failure
    this.timer = setTimeout(() => this.stop('timeout'), spec.timeoutMs);
    this.timer.unref();
    this.exited = new Promise((resolve) => {
      this.child.on('error', (error) => {
        this.error = error.message;
        if (spec.cgroup) void ProcessGroups.remove(spec.cgroup);
        this.finish('failed', null, null);
        resolve();
      });
      this.child.on('close', (code, signal) => {
        const pidsMax = spec.cgroup !== undefined && ProcessGroups.hitMax(spec.cgroup);
        this.finish(this.stopping ?? 'exited', code, signal);
        if (spec.limits && this.status === 'exited') {
          this.limit = limitHit(spec.limits, {
            output: this.output.text(),
            exitCode: code,
            signal,
            pidsMax,
            sandboxed: spec.sandboxed === true,
          });
        }
        if (spec.cgroup) void ProcessGroups.remove(spec.cgroup);
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.status === 'running';
  }

  /** Writes to stdin; `eof` closes it. Returns false when the process no longer reads. */
  write(data: string, eof = false): boolean {
    const stdin = this.child.stdin;
    if (!this.running || !stdin || stdin.destroyed || stdin.writableEnded) return false;
    if (data) stdin.write(data);
    if (eof) stdin.end();
    return true;
  }

  /** Stops the process group: SIGTERM, then SIGKILL if it is still there after the grace (a sandbox: SIGKILL at once). */
  stop(reason: 'killed' | 'timeout' = 'killed'): Promise<void> {
    if (!this.running) return this.exited;
    this.stopping ??= reason;
    this.signalGroup(this.sandboxed ? 'SIGKILL' : 'SIGTERM');
    const force = setTimeout(() => this.signalGroup('SIGKILL'), KILL_GRACE_MS);
    force.unref();
    return this.exited.finally(() => clearTimeout(force));
  }

  /** Kills at once (kernel shutdown). */
  kill(): Promise<void> {
    if (!this.running) return this.exited;
    this.stopping ??= 'killed';
    this.signalGroup('SIGKILL');
    return this.exited;
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    if (this.sandboxed && signal === 'SIGKILL') return this.killSandbox(pid);
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  }

  /**
   * bwrap's sandbox (its pid namespace's first process) leaves bwrap's process group (`--new-session`) and is tied
   * to bwrap only once its death signal is armed, late in its setup. A kill in that window would leave it running, so
   * bwrap is stopped first (it clones no more), its children are read and killed by pid (the pid namespace dies with
   * its first process), then bwrap's group; and whatever is left in the command's pids cgroup.
   */
  private killSandbox(pid: number): void {
    const kill = (target: number) => {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    try {
      process.kill(-pid, 'SIGSTOP');
    } catch {
      // already gone
    }
    for (const child of childrenOf(pid)) kill(child);
    kill(-pid);
    if (this.cgroup) for (const member of ProcessGroups.members(this.cgroup)) kill(member);
  }

  private finish(status: SessionStatus, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.status !== 'running') return;
    clearTimeout(this.timer);
    this.status = status;
    this.exitCode = code;
    this.signal = signal;
  }
}

/** Every child of every thread of `pid` (Linux `/proc/<pid>/task/<tid>/children`). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
      try {
        return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}
