/**
 * One run of code in one sandbox (either backend: both speak the child's
 * protocol): sends the code, serves `openclaw.tools.*` requests through the
 * run, and owns every bound that matters: the wall clock, the caller's abort,
 * and a second count of calls, logs and result size in case the sandbox lies.
 * Resolves once the outcome is known and the sandbox is killed (it can act no
 * more); its exit (`child.exited`, a process reaped a few ms later) is the
 * caller's to wait for.
 */
import { ErrorCode, type AnyErrorCode, type RunApi } from '@tool-search/kernel';
import { createBridge } from './bridge.js';
import type { ResolvedOptions } from './options.js';
import type { CodeError, CodeLog, CodeResult, CodeTelemetry } from './result.js';
import type { ChildExit, SandboxChild } from './sandbox/process.js';
import { searchLimitsFor } from '@tool-search/control-tools';
import { capReply } from './reply-cap.js';
import type { ChildLimits, ChildMessage } from './sandbox/protocol.js';
import { cutUtf8 } from './utf8.js';
import { CodeErrors } from './errors.js';

export interface SessionParts {
  readonly run: RunApi;
  readonly code: string;
  readonly options: ResolvedOptions;
  readonly child: SandboxChild;
  readonly signal: AbortSignal;
  readonly telemetry: CodeTelemetry;
  readonly started: number;
}

export function session({ run, code, options, child, signal, telemetry, started }: SessionParts): Promise<CodeResult> {
  const { limits } = options;
  // The run's `searchLimits` (a per-agent or per-provider toolSearch override) win over the mode's own, as in the other modes.
  const { searchDefaultLimit, maxSearchLimit } = searchLimitsFor(
    { searchDefaultLimit: options.searchDefaultLimit, maxSearchLimit: options.maxSearchLimit },
    run.info?.request,
  );
  const bridge = createBridge(run, {
    ...(searchDefaultLimit !== undefined ? { searchDefaultLimit } : {}),
    ...(maxSearchLimit !== undefined ? { maxSearchLimit } : {}),
  });
  const inFlight = new AbortController();
  const logs: CodeLog[] = [];
  let logBytes = 0;
  let bridgeCalls = 0;
  let pending = 0;
  /** Calls in flight, by request id: what the result names when the run ends before they do. */
  const calls = new Map<number, string>();

  return new Promise<CodeResult>((resolve) => {
    let settled = false;
    const settle = (outcome: { ok: true; value: unknown } | { ok: false; error: CodeError }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (calls.size > 0) telemetry.cancelled = [...calls.values()].map((toolId) => ({ op: 'call' as const, toolId }));
      inFlight.abort(
        new Error(outcome.ok ? 'the code finished before this call' : `the run of code ended: ${outcome.error.code}`),
      );
      void child.kill();
      telemetry.durationMs = Math.round(performance.now() - started);
      resolve(
        outcome.ok
          ? { ok: true, value: outcome.value, logs, telemetry }
          : { ok: false, error: outcome.error, logs, telemetry },
      );
    };
    const fail = (code: AnyErrorCode, message: string, cause?: CodeError['cause']) =>
      settle({ ok: false, error: { code, message, ...(cause ? { cause } : {}) } });

    const timer = setTimeout(
      () =>
        fail(
          CodeErrors.CODE_TIMEOUT,
          `the code did not finish within ${options.codeTimeoutMs} ms; the sandbox was stopped (tools.toolSearch.codeTimeoutMs raises or lowers this limit)`,
        ),
      options.codeTimeoutMs,
    );
    const onAbort = () => fail(CodeErrors.CODE_ABORTED, 'the run of code was cancelled; the sandbox was stopped');
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
        return fail(CodeErrors.SANDBOX_FAILED, 'the sandbox went past its bridge call bounds; it was stopped');
      }
      bridgeCalls += 1;
      pending += 1;
      if (op === 'search') telemetry.searches += 1;
      else if (op === 'describe') telemetry.describes += 1;
      else {
        telemetry.calls += 1;
        calls.set(id, callTarget(run, payload));
      }
      void bridge.handle(op, payload, inFlight.signal).then((answer) => {
        pending -= 1;
        calls.delete(id);
        if (settled) return;
        try {
          if (!answer.ok) return child.send({ t: 'reply', id, ok: false, error: answer.error });
          const capped = capReply(op, answer.value, limits.maxReplyBytes);
          if (capped.cut) telemetry.cut.replies = true;
          child.send({ t: 'reply', id, ok: true, value: capped.value });
        } catch {
          // An answer that cannot be serialized (too deep) must not become an unhandled rejection in the parent.
          child.send({
            t: 'reply',
            id,
            ok: false,
            error: { code: ErrorCode.TOOL_EXECUTION_FAILED, message: 'the answer could not be serialized' },
          });
        }
      });
    };

    const onDone = (message: Extract<ChildMessage, { t: 'done' }>) => {
      if (!message.ok) {
        const { phase, error } = message;
        if (phase === 'compile')
          return fail(CodeErrors.CODE_INVALID, `the code does not compile: ${error.name}: ${error.message}`, error);
        if (phase === 'setup') return fail(CodeErrors.SANDBOX_FAILED, error.message);
        if (phase === 'result')
          return fail(CodeErrors.CODE_FAILED, `the return value is not JSON data: ${error.message}`, error);
        return fail(CodeErrors.CODE_FAILED, `the code threw ${error.name}: ${error.message}`, error);
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
        return fail(CodeErrors.SANDBOX_FAILED, 'the sandbox returned a value that is not JSON');
      }
      try {
        // Whoever receives the value will serialize it again: too deep a value must fail here, as data.
        JSON.stringify(value);
      } catch {
        return fail(CodeErrors.CODE_FAILED, 'the return value nests too deeply to serialize');
      }
      return settle({ ok: true, value });
    };

    child.listen((event) => {
      if (settled) return;
      if (event.type === 'exit')
        return fail(CodeErrors.SANDBOX_FAILED, exitReason(event.exit, limits.memoryMb, child.pid === undefined));
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
          return fail(CodeErrors.SANDBOX_FAILED, message.reason);
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

/** `worker`: the QuickJS backend, whose `stderr` is the worker's own crash reason (our words, no host output). */
function exitReason(exit: ChildExit, memoryMb: number, worker: boolean): string {
  if (exit.violation) return `${exit.violation}; it was stopped`;
  if (exit.spawnError) return `the sandbox process could not be started (${exit.spawnError})`;
  if (/heap limit|heap out of memory|allocation failed/i.test(exit.stderr))
    return `the sandbox ran out of memory (limit ${memoryMb} MiB)`;
  if (worker && exit.stderr) return `the sandbox's interpreter stopped: ${exit.stderr}`;
  return `the sandbox process exited unexpectedly (${exit.signal ?? `code ${exit.code}`})`;
}

/** The tool a call names, as an id when the run knows it. */
function callTarget(run: RunApi, payload: unknown): string {
  const id = typeof payload === 'object' && payload !== null ? (payload as { id?: unknown }).id : undefined;
  if (typeof id !== 'string') return String(id);
  return run.tool(id)?.id ?? id;
}
