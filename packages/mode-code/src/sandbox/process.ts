/**
 * One sandbox child process: spawned from `process.execPath` with the
 * permission model, an empty environment and a fresh temporary working
 * folder; spoken to in JSON lines over stdio; killed with SIGKILL. `kill()`
 * resolves only after the process has exited (and was reaped), so no child
 * outlives the run that used it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './launcher.js';
import { sandboxCommand } from './node-flags.js';
import { encodeMessage, parseChildMessage, type ChildMessage, type ParentMessage } from './protocol.js';

export interface SpawnOptions {
  readonly memoryMb: number;
  /** Resident memory the child may use, V8 heap or not (sampled on Linux); past it the child is killed. */
  readonly rssMb?: number;
  /** Longest line the child may write; a longer one is a protocol violation. */
  readonly maxLineBytes: number;
  /** Observes every child started (tests, process accounting). */
  readonly onSpawn?: (pid: number) => void;
}

export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The spawn itself failed (`EACCES`, `EAGAIN`, …). */
  readonly spawnError?: string;
  /** Set when the parent killed the child because it broke the protocol. */
  readonly violation?: string;
  /** The end of the child's stderr, for diagnosing crashes (heap limit, aborts). */
  readonly stderr: string;
}

export type ChildEvent =
  | { readonly type: 'message'; readonly message: ChildMessage }
  | { readonly type: 'exit'; readonly exit: ChildExit };

export interface SandboxChild {
  readonly pid: number | undefined;
  /** Resolves when the child said it is ready, rejects if it exits first. */
  readonly ready: Promise<void>;
  readonly exited: Promise<ChildExit>;
  readonly alive: boolean;
  /** Receives buffered and future events (one listener). */
  listen(listener: (event: ChildEvent) => void): void;
  send(message: ParentMessage): void;
  kill(): Promise<ChildExit>;
}

const STDERR_TAIL = 4096;
const live = new Set<ChildProcessWithoutNullStreams>();
/** Working folders of children not yet removed: each goes after its child exited, or with the exit hook. */
const folders = new Set<string>();
let exitHookInstalled = false;

export function spawnSandbox(options: SpawnOptions): SandboxChild {
  installExitHook();
  const command = launch(sandboxCommand(options.memoryMb), options.memoryMb);
  const cwd = mkdtempSync(join(tmpdir(), 'tool-search-code-'));
  folders.add(cwd);
  const child = spawn(command.execPath, [...command.args], {
    cwd,
    env: {},
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  live.add(child);
  if (child.pid !== undefined) options.onSpawn?.(child.pid);

  const queue: ChildEvent[] = [];
  let listener: ((event: ChildEvent) => void) | undefined;
  let stdout = '';
  let stderr = '';
  let violation: string | undefined;
  let spawnError: string | undefined;
  let exited = false;

  const emit = (event: ChildEvent) => (listener ? listener(event) : queue.push(event));

  const exitedPromise = new Promise<ChildExit>((resolve) => {
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (exited) return;
      exited = true;
      live.delete(child);
      const exit: ChildExit = {
        code,
        signal,
        stderr,
        ...(spawnError ? { spawnError } : {}),
        ...(violation ? { violation } : {}),
      };
      emit({ type: 'exit', exit });
      resolve(exit);
      // After the result has reached its caller (promise jobs run first); the exit hook removes any left at exit.
      setImmediate(() => removeFolder(cwd));
    };
    child.once('exit', finish);
    child.once('error', (error: NodeJS.ErrnoException) => {
      spawnError = error.code ?? error.message;
      // A failed spawn emits no 'exit'; a running child that errors (kill failed) will.
      if (child.pid === undefined) finish(null, null);
    });
  });

  const readyWatchers: ((message: ChildMessage) => void)[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    const onReady = (message: ChildMessage) => message.t === 'ready' && resolve();
    readyWatchers.push(onReady);
    void exitedPromise.then((exit) =>
      reject(
        new Error(
          exit.spawnError ??
            `the sandbox child exited (${exit.signal ?? exit.code}) before it was ready${said(exit.stderr)}`,
        ),
      ),
    );
  });
  ready.catch(() => {}); // observed here so an early exit is no unhandled rejection; whoever awaits `ready` gets it

  const violate = (reason: string) => {
    violation ??= reason;
    child.kill('SIGKILL');
  };

  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    if (violation) return;
    stdout += chunk;
    let newline = stdout.indexOf('\n');
    while (newline !== -1 && !violation) {
      const line = stdout.slice(0, newline);
      stdout = stdout.slice(newline + 1);
      newline = stdout.indexOf('\n');
      if (Buffer.byteLength(line, 'utf8') > options.maxLineBytes)
        return violate('a message from the sandbox was too large');
      const message = parseChildMessage(line);
      if (!message) return violate('the sandbox sent a message outside the bridge protocol');
      for (const watch of readyWatchers) watch(message);
      emit({ type: 'message', message });
    }
    if (Buffer.byteLength(stdout, 'utf8') > options.maxLineBytes) violate('a message from the sandbox was too large');
  });
  if (options.rssMb !== undefined && child.pid !== undefined)
    watchMemory(child.pid, options.rssMb, violate, exitedPromise);
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });
  // Writes to a child that already died fail with EPIPE: the exit is reported instead.
  child.stdin.on('error', () => {});

  return {
    get pid() {
      return child.pid;
    },
    ready,
    exited: exitedPromise,
    get alive() {
      return !exited;
    },
    listen(next) {
      listener = next;
      for (const event of queue.splice(0)) next(event);
    },
    send(message) {
      if (!exited && child.stdin.writable) child.stdin.write(encodeMessage(message));
    },
    kill() {
      if (!exited) child.kill('SIGKILL');
      return exitedPromise;
    },
  };
}

const RSS_SAMPLE_MS = 100;

/**
 * The RSS watchdog (Linux: /proc/<pid>/status): memory outside the V8 heap
 * (Intl objects, large strings' backing stores) is not bounded by the heap
 * flag, so the parent samples the child's resident set and kills it past the
 * limit. Sampling, so a burst inside one interval can overshoot; the
 * address-space limit (launcher.ts) is the hard ceiling behind it.
 */
function watchMemory(pid: number, rssMb: number, violate: (reason: string) => void, exited: Promise<unknown>): void {
  if (process.platform !== 'linux') return;
  const limitKb = rssMb * 1024;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    readFile(`/proc/${pid}/status`, 'utf8').then(
      (status) => {
        busy = false;
        const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
        if (kb > limitKb) violate(`the sandbox used more than ${rssMb} MiB of memory (resident)`);
      },
      () => (busy = false),
    );
  }, RSS_SAMPLE_MS);
  timer.unref();
  void exited.then(() => clearInterval(timer));
}

/** The child cannot write, so its folder is empty: one rmdir, not a recursive walk (which costs more, on every run). */
function removeFolder(path: string): void {
  if (!folders.delete(path)) return;
  try {
    rmdirSync(path);
  } catch {
    rmSync(path, { recursive: true, force: true });
  }
}

const PARENT_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'];

/**
 * If the parent exits while children run, take them down with it (and remove
 * the folders still waiting): on exit and on every catchable signal that ends
 * a process. A signal handler that is the only one re-raises the signal after
 * it, so the parent still ends as it would have. SIGKILL cannot be caught: the
 * child's parent-death signal (launcher.ts) and its stdin closing cover it.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const killAll = () => {
    for (const child of live) child.kill('SIGKILL');
    for (const folder of [...folders]) removeFolder(folder);
  };
  process.once('exit', killAll);
  for (const signal of PARENT_SIGNALS) {
    const onSignal = () => {
      killAll();
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

/** The child's last stderr line, as `: <line>` (why a child that never got ready stopped: a refused flag, a crash). */
function said(stderr: string): string {
  const last = stderr.trim().split('\n').pop()?.trim();
  return last ? `: ${last.slice(0, 300)}` : '';
}
