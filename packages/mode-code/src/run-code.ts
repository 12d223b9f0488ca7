/**
 * `runCode`: runs the body of an async function in a fresh sandbox child and
 * serves its `openclaw.tools.*` requests through the run. The parent owns
 * every bound that matters: the wall clock (SIGKILL), the caller's abort, and
 * a second count of calls, logs and result size in case the child lies.
 * The promise resolves only after the child has exited.
 */
import { ErrorCode, type RunApi } from '@tool-search/kernel';
import { createBridge } from './bridge.js';
import { resolveOptions, type CodeModeOptions, type ResolvedOptions } from './options.js';
import { emptyTelemetry, type CodeError, type CodeLog, type CodeResult, type CodeTelemetry } from './result.js';
import type { SandboxPool } from './sandbox/pool.js';
import { spawnSandbox, type ChildExit, type SandboxChild } from './sandbox/process.js';
import type { ChildLimits, ChildMessage } from './sandbox/protocol.js';
import { checkSandboxSupport } from './sandbox/support.js';
import { checkCode, type CodeLocation } from './scan.js';

export interface RunCodeOptions extends Omit<CodeModeOptions, 'warmPool'> {
  /** Cancels the run: the child is killed and bridge calls in flight are aborted. */
  readonly signal?: AbortSignal;
}

export function runCode(run: RunApi, code: string, options: RunCodeOptions = {}): Promise<CodeResult> {
  const { signal, ...rest } = options;
  return runCodeWith(run, code, resolveOptions(rest), signal, undefined);
}

/** `runCode` with resolved options and, for the plugin, a warm pool. */
export async function runCodeWith(
  run: RunApi,
  code: string,
  options: ResolvedOptions,
  callerSignal: AbortSignal | undefined,
  pool: SandboxPool | undefined,
): Promise<CodeResult> {
  const started = performance.now();
  const telemetry = emptyTelemetry();
  const refuse = (code: ErrorCode, message: string, location?: CodeLocation): CodeResult => {
    telemetry.durationMs = Math.round(performance.now() - started);
    return { ok: false, error: { code, message, ...(location ? { location } : {}) }, telemetry };
  };
  if (typeof code !== 'string' || code.trim() === '') return refuse(ErrorCode.CODE_INVALID, 'code must be a non-empty string (the body of an async function)');
  if (Buffer.byteLength(code, 'utf8') > options.limits.maxCodeBytes) {
    return refuse(ErrorCode.CODE_INVALID, `code is larger than ${options.limits.maxCodeBytes} bytes; split the work into several runs`);
  }
  const checked = checkCode(code);
  if (!checked.ok) {
    const at = checked.location ? ` (line ${checked.location.line}, column ${checked.location.column})` : '';
    const message = checked.reason === 'syntax' ? `the code does not compile: SyntaxError: ${checked.message}${at}` : `${checked.message}${at}`;
    return refuse(ErrorCode.CODE_INVALID, message, checked.location);
  }
  const support = await checkSandboxSupport();
  if (!support.ok) return refuse(ErrorCode.SANDBOX_UNAVAILABLE, support.reason);
  const signal = callerSignal ? AbortSignal.any([callerSignal, run.signal]) : run.signal;
  if (signal.aborted) return refuse(ErrorCode.CODE_ABORTED, 'the run of code was cancelled before it started');

  let child: SandboxChild;
  try {
    child = pool ? pool.take() : spawnSandbox({ memoryMb: options.limits.memoryMb, maxLineBytes: maxLineBytes(options), ...(options.onSpawn ? { onSpawn: options.onSpawn } : {}) });
  } catch (error) {
    return refuse(ErrorCode.SANDBOX_UNAVAILABLE, `the sandbox process could not be started: ${error instanceof Error ? error.message : String(error)}`);
  }
  return session({ run, code, options, child, signal, telemetry, started });
}

/** A line may carry a result or a log line, JSON-escaped (up to 6 bytes per byte), plus framing. */
export function maxLineBytes(options: ResolvedOptions): number {
  return Math.max(options.limits.maxResultBytes, options.limits.maxLogBytes) * 6 + 4096;
}

interface SessionParts {
  readonly run: RunApi;
  readonly code: string;
  readonly options: ResolvedOptions;
  readonly child: SandboxChild;
  readonly signal: AbortSignal;
  readonly telemetry: CodeTelemetry;
  readonly started: number;
}

function session({ run, code, options, child, signal, telemetry, started }: SessionParts): Promise<CodeResult> {
  const { limits } = options;
  const bridge = createBridge(run, {
    ...(options.searchDefaultLimit !== undefined ? { searchDefaultLimit: options.searchDefaultLimit } : {}),
    ...(options.maxSearchLimit !== undefined ? { maxSearchLimit: options.maxSearchLimit } : {}),
  });
  const inFlight = new AbortController();
  const logs: CodeLog[] = [];
  let logBytes = 0;
  let bridgeCalls = 0;
  let pending = 0;

  return new Promise<CodeResult>((resolve) => {
    let settled = false;
    const settle = (outcome: { ok: true; value: unknown } | { ok: false; error: CodeError }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      inFlight.abort();
      void child.kill().then(() => {
        telemetry.durationMs = Math.round(performance.now() - started);
        resolve(outcome.ok ? { ok: true, value: outcome.value, logs, telemetry } : { ok: false, error: outcome.error, logs, telemetry });
      });
    };
    const fail = (code: ErrorCode, message: string, cause?: CodeError['cause']) => settle({ ok: false, error: { code, message, ...(cause ? { cause } : {}) } });

    const timer = setTimeout(
      () => fail(ErrorCode.CODE_TIMEOUT, `the code did not finish within ${options.codeTimeoutMs} ms; the sandbox was stopped`),
      options.codeTimeoutMs,
    );
    const onAbort = () => fail(ErrorCode.CODE_ABORTED, 'the run of code was cancelled; the sandbox was stopped');
    signal.addEventListener('abort', onAbort, { once: true });

    const onLog = (level: CodeLog['level'], text: string) => {
      const room = limits.maxLogBytes - logBytes;
      if (logs.length >= limits.maxLogLines || room <= 0) {
        telemetry.cut.logs = true;
        return;
      }
      const kept = cutUtf8(text, room);
      if (kept !== text) telemetry.cut.logs = true;
      logBytes += Buffer.byteLength(kept, 'utf8');
      logs.push({ level, text: kept });
    };

    const onBridge = (id: number, op: 'search' | 'describe' | 'call', payload: unknown) => {
      // The child enforces these bounds itself; going past them means it is not the child we started.
      if (bridgeCalls >= limits.maxBridgeCalls || pending >= limits.maxPendingCalls) {
        telemetry.cut.calls = true;
        return fail(ErrorCode.SANDBOX_FAILED, 'the sandbox went past its bridge call bounds; it was stopped');
      }
      bridgeCalls += 1;
      pending += 1;
      if (op === 'search') telemetry.searches += 1;
      else if (op === 'describe') telemetry.describes += 1;
      else telemetry.calls += 1;
      void bridge.handle(op, payload, inFlight.signal).then((answer) => {
        pending -= 1;
        if (settled) return;
        try {
          child.send(answer.ok ? { t: 'reply', id, ok: true, value: answer.value } : { t: 'reply', id, ok: false, error: answer.error });
        } catch {
          // An answer that cannot be serialized (too deep) must not become an unhandled rejection in the parent.
          child.send({ t: 'reply', id, ok: false, error: { code: ErrorCode.TOOL_EXECUTION_FAILED, message: 'the answer could not be serialized' } });
        }
      });
    };

    const onDone = (message: Extract<ChildMessage, { t: 'done' }>) => {
      if (!message.ok) {
        const { phase, error } = message;
        if (phase === 'compile') return fail(ErrorCode.CODE_INVALID, `the code does not compile: ${error.name}: ${error.message}`, error);
        if (phase === 'setup') return fail(ErrorCode.SANDBOX_FAILED, error.message);
        if (phase === 'result') return fail(ErrorCode.CODE_FAILED, `the return value is not JSON data: ${error.message}`, error);
        return fail(ErrorCode.CODE_FAILED, `the code threw ${error.name}: ${error.message}`, error);
      }
      if (message.json === undefined) return settle({ ok: true, value: undefined });
      if (message.cut || Buffer.byteLength(message.json, 'utf8') > limits.maxResultBytes) {
        telemetry.cut.result = true;
        return settle({ ok: true, value: cutUtf8(message.json, limits.maxResultBytes) });
      }
      let value: unknown;
      try {
        value = JSON.parse(message.json);
      } catch {
        return fail(ErrorCode.SANDBOX_FAILED, 'the sandbox returned a value that is not JSON');
      }
      try {
        // Whoever receives the value will serialize it again: too deep a value must fail here, as data.
        JSON.stringify(value);
      } catch {
        return fail(ErrorCode.CODE_FAILED, 'the return value nests too deeply to serialize');
      }
      return settle({ ok: true, value });
    };

    child.listen((event) => {
      if (settled) return;
      if (event.type === 'exit') return fail(ErrorCode.SANDBOX_FAILED, exitReason(event.exit, limits.memoryMb));
      const message = event.message;
      switch (message.t) {
        case 'log':
          return onLog(message.level, message.text);
        case 'cut':
          telemetry.cut[message.what] = true;
          return;
        case 'bridge':
          return onBridge(message.id, message.op, message.payload);
        case 'done':
          return onDone(message);
        case 'fatal':
          return fail(ErrorCode.SANDBOX_FAILED, message.reason);
        case 'ready':
          return;
      }
    });
    child.send({ t: 'run', code, limits: childLimits(options) });
  });
}

function childLimits(options: ResolvedOptions): ChildLimits {
  const { maxBridgeCalls, maxPendingCalls, maxLogBytes, maxLogLines, maxResultBytes } = options.limits;
  return { maxBridgeCalls, maxPendingCalls, maxLogBytes, maxLogLines, maxResultBytes };
}

function exitReason(exit: ChildExit, memoryMb: number): string {
  if (exit.violation) return `${exit.violation}; it was stopped`;
  if (exit.spawnError) return `the sandbox process could not be started (${exit.spawnError})`;
  if (/heap limit|heap out of memory|allocation failed/i.test(exit.stderr)) return `the sandbox ran out of memory (limit ${memoryMb} MiB)`;
  return `the sandbox process exited unexpectedly (${exit.signal ?? `code ${exit.code}`})`;
}

function cutUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let out = Buffer.from(text, 'utf8').subarray(0, Math.max(0, maxBytes)).toString('utf8');
  while (Buffer.byteLength(out, 'utf8') > maxBytes) out = out.slice(0, -1);
  return out;
}
