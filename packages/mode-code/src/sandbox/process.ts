/**
 * One sandbox child process: spawned from `process.execPath` with the
 * permission model, an empty environment and a fresh temporary working
 * folder; spoken to in JSON lines over stdio; killed with SIGKILL. `kill()`
 * resolves only after the process has exited (and was reaped), so no child
 * outlives the run that used it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxCommand } from './node-flags.js';
import { encodeMessage, parseChildMessage, type ChildMessage, type ParentMessage } from './protocol.js';

export interface SpawnOptions {
  readonly memoryMb: number;
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

export type ChildEvent = { readonly type: 'message'; readonly message: ChildMessage } | { readonly type: 'exit'; readonly exit: ChildExit };

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
/** Folders of exited children not yet removed. */
const folders = new Set<string>();
let exitHookInstalled = false;

export function spawnSandbox(options: SpawnOptions): SandboxChild {
  installExitHook();
  const command = sandboxCommand(options.memoryMb);
  const cwd = mkdtempSync(join(tmpdir(), 'tool-search-code-'));
  const child = spawn(command.execPath, [...command.args], { cwd, env: {}, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
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
      const exit: ChildExit = { code, signal, stderr, ...(spawnError ? { spawnError } : {}), ...(violation ? { violation } : {}) };
      emit({ type: 'exit', exit });
      resolve(exit);
      // After the result has reached its caller (promise jobs run first); the exit hook removes any left at exit.
      folders.add(cwd);
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
    void exitedPromise.then((exit) => reject(new Error(exit.spawnError ?? `the sandbox child exited (${exit.signal ?? exit.code}) before it was ready`)));
  });
  ready.catch(() => {});

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
      if (Buffer.byteLength(line, 'utf8') > options.maxLineBytes) return violate('a message from the sandbox was too large');
      const message = parseChildMessage(line);
      if (!message) return violate('the sandbox sent a message outside the bridge protocol');
      for (const watch of readyWatchers) watch(message);
      emit({ type: 'message', message });
    }
    if (Buffer.byteLength(stdout, 'utf8') > options.maxLineBytes) violate('a message from the sandbox was too large');
  });
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

/** The child cannot write, so its folder is empty: one rmdir, not a recursive walk (which costs more, on every run). */
function removeFolder(path: string): void {
  if (!folders.delete(path)) return;
  try {
    rmdirSync(path);
  } catch {
    rmSync(path, { recursive: true, force: true });
  }
}

/** If the parent exits while children run, take them down with it (and remove the folders still waiting). */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) child.kill('SIGKILL');
    for (const folder of [...folders]) removeFolder(folder);
  });
}
