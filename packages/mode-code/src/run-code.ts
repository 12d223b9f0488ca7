/**
 * `runCode`: checks the code (size, parser), picks the sandbox backend
 * (process → quickjs), waits for a free slot under the concurrency cap, starts
 * a fresh sandbox and runs one session in it (session.ts). The promise
 * resolves when the sandbox is killed; its slot is freed when it has exited
 * (a killed process still holds its memory until it is reaped, ~2 ms), and
 * `sandboxesExited()` waits for every one still exiting.
 */
import { type AnyErrorCode, type RunApi, errorMessage } from '@tool-search/kernel';
import { createGate, type Gate } from './gate.js';
import { resolveOptions, type CodeModeOptions, type ResolvedOptions } from './options.js';
import { emptyTelemetry, type CodeResult } from './result.js';
import type { SandboxKind } from './sandbox/kinds.js';
import type { SandboxPool } from './sandbox/pool.js';
import { spawnSandbox, type SandboxChild, type SpawnOptions } from './sandbox/process.js';
import { createQuickJSSandbox } from './sandbox/quickjs.js';
import { chooseBackend, fallbackDiagnostic } from './sandbox/choose.js';
import type { CodeLocation } from './scan.js';
import { session } from './session.js';
import { CodeErrors } from './errors.js';

export interface RunCodeOptions extends Omit<CodeModeOptions, 'warmPool'> {
  /** Cancels the run: the child is killed and bridge calls in flight are aborted. */
  readonly signal?: AbortSignal;
}

/** Where a run gets its sandbox: the concurrency gate and, for the plugin's process backend, a warm pool. */
export interface RunEnvironment {
  readonly gate: Gate;
  readonly pool?: SandboxPool;
}

export function runCode(run: RunApi, code: string, options: RunCodeOptions = {}): Promise<CodeResult> {
  const { signal, ...rest } = options;
  const resolved = resolveOptions(rest);
  return runCodeWith(run, code, resolved, signal, { gate: sharedGate(resolved.maxConcurrent) });
}

/** Runs without a plugin share one gate per size in this process. */
const gates = new Map<number, Gate>();
function sharedGate(size: number): Gate {
  let gate = gates.get(size);
  if (!gate) gates.set(size, (gate = createGate(size)));
  return gate;
}

/** `runCode` with resolved options, in an environment (the plugin's gate and warm pool). */
export async function runCodeWith(
  run: RunApi,
  code: string,
  options: ResolvedOptions,
  callerSignal: AbortSignal | undefined,
  env: RunEnvironment,
): Promise<CodeResult> {
  const started = performance.now();
  const telemetry = emptyTelemetry();
  const refuse = (code: AnyErrorCode, message: string, location?: CodeLocation): CodeResult => {
    telemetry.durationMs = Math.round(performance.now() - started);
    return { ok: false, error: { code, message, ...(location ? { location } : {}) }, telemetry };
  };
  if (typeof code !== 'string' || code.trim() === '')
    return refuse(CodeErrors.CODE_INVALID, 'code must be a non-empty string (the body of an async function)');
  if (Buffer.byteLength(code, 'utf8') > options.limits.maxCodeBytes) {
    return refuse(
      CodeErrors.CODE_INVALID,
      `code is larger than ${options.limits.maxCodeBytes} bytes; split the work into several runs`,
    );
  }
  // The parser (acorn, ~230 KB) loads with the first run, not with the plugin: listing tools never needs it.
  const { checkCode } = await import('./scan.js');
  const checked = checkCode(code);
  if (!checked.ok) {
    const at = checked.location ? ` (line ${checked.location.line}, column ${checked.location.column})` : '';
    const message =
      checked.reason === 'syntax'
        ? `the code does not compile: SyntaxError: ${checked.message}${at}`
        : `${checked.message}${at}`;
    return refuse(CodeErrors.CODE_INVALID, message, checked.location);
  }
  const backend = await chooseBackend(options.sandbox);
  if (!backend.ok)
    return refuse(CodeErrors.SANDBOX_UNAVAILABLE, `no sandbox backend can start here: ${backend.reason}`);
  // Without the plugin (runCode, `tool-search code run`) the fallback is told to the run's observers here.
  if (backend.skipped)
    run.emit({
      type: 'diagnostic',
      diagnostic: { ...fallbackDiagnostic(options.sandbox, backend), hook: 'runCode' },
    });
  const signal = callerSignal ? AbortSignal.any([callerSignal, run.signal]) : run.signal;
  if (signal.aborted) return refuse(CodeErrors.CODE_ABORTED, 'the run of code was cancelled before it started');

  let release: () => void;
  try {
    release = await env.gate.acquire(signal);
  } catch {
    return refuse(CodeErrors.CODE_ABORTED, 'the run of code was cancelled while it waited for a free sandbox');
  }
  let child: SandboxChild;
  try {
    child = startSandbox(backend.kind, options, env.pool);
  } catch (error) {
    release();
    return refuse(
      CodeErrors.SANDBOX_UNAVAILABLE,
      `the ${backend.kind} sandbox could not be started: ${errorMessage(error)}`,
    );
  }
  try {
    return await session({ run, code, options, child, signal, telemetry, started });
  } finally {
    // The slot stays taken until the killed sandbox is gone: the cap bounds processes, not answers.
    const gone = child.exited.then(release, release);
    exiting.add(gone);
    void gone.finally(() => exiting.delete(gone));
  }
}

/** Sandboxes killed at the end of their run and not yet exited. */
const exiting = new Set<Promise<unknown>>();

/** Resolves when every sandbox whose run ended has exited (shutdown, tests). */
export async function sandboxesExited(): Promise<void> {
  await Promise.all([...exiting]);
}

function startSandbox(kind: SandboxKind, options: ResolvedOptions, pool: SandboxPool | undefined): SandboxChild {
  if (kind === 'quickjs')
    return createQuickJSSandbox({
      memoryMb: options.limits.memoryMb,
      timeoutMs: options.codeTimeoutMs,
      keepIdle: options.maxConcurrent,
    });
  return pool ? pool.take() : spawnSandbox(spawnOptions(options));
}

/** How a Node child is spawned for these options (the warm pool spawns the same). */
export function spawnOptions(options: ResolvedOptions): SpawnOptions {
  const { memoryMb, rssMb } = options.limits;
  return {
    memoryMb,
    rssMb: Math.max(rssMb, memoryMb * 2),
    maxLineBytes: maxLineBytes(options),
    ...(options.onSpawn ? { onSpawn: options.onSpawn } : {}),
  };
}

/** A line may carry a result or a log line, JSON-escaped (up to 6 bytes per byte), plus framing. */
export function maxLineBytes(options: ResolvedOptions): number {
  return Math.max(options.limits.maxResultBytes, options.limits.maxLogBytes) * 6 + 4096;
}
