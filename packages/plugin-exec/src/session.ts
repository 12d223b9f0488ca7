/**
 * One running command: a child process in its own process group (so a kill
 * reaches everything it started), its bounded output, and how it ended. A
 * timeout or a kill sends SIGTERM to the group, then SIGKILL after a grace.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
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
  /** Absolute output position the last poll returned up to. */
  pollCursor = 0;
  readonly exited: Promise<void>;
  private readonly child: ChildProcess;
  private readonly timer: NodeJS.Timeout;
  private stopping: SessionStatus | undefined;

  constructor(
    readonly agent: string,
    readonly command: string,
    spec: SpawnSpec,
  ) {
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
        this.finish('failed', null, null);
        resolve();
      });
      this.child.on('close', (code, signal) => {
        this.finish(this.stopping ?? 'exited', code, signal);
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

  /** Stops the process group: SIGTERM, then SIGKILL if it is still there after the grace. */
  stop(reason: 'killed' | 'timeout' = 'killed'): Promise<void> {
    if (!this.running) return this.exited;
    this.stopping ??= reason;
    this.signalGroup('SIGTERM');
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
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  }

  private finish(status: SessionStatus, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.status !== 'running') return;
    clearTimeout(this.timer);
    this.status = status;
    this.exitCode = code;
    this.signal = signal;
  }
}
