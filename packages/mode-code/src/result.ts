/** What one run of code returns: plain JSON data, for the model and for the CLI. */
import type { AnyErrorCode } from '@tool-search/kernel';
import type { CodeLocation } from './scan.js';
import type { LogLevel, ThrownError } from './sandbox/protocol.js';

export interface CodeLog {
  readonly level: LogLevel;
  readonly text: string;
}

/** What a bound cut (true = something was dropped). */
export interface CodeCuts {
  /** Console output past `maxLogBytes` / `maxLogLines`. */
  logs: boolean;
  /** The return value past `maxResultBytes` (the value is then the cut JSON text). */
  result: boolean;
  /** Bridge calls refused past `maxBridgeCalls` / `maxPendingCalls`. */
  calls: boolean;
  /** Answers into the sandbox cut at `maxReplyBytes` (the code saw `truncated: true` on them). */
  replies: boolean;
}

/** A tool call still running when the run ended (return, timeout, abort): it was aborted. */
export interface CancelledCall {
  readonly op: 'call';
  readonly toolId: string;
}

export interface CodeTelemetry {
  searches: number;
  describes: number;
  calls: number;
  durationMs: number;
  cut: CodeCuts;
  /** Calls aborted because the run ended before they did (absent when none). */
  cancelled?: readonly CancelledCall[];
}

export interface CodeError {
  readonly code: AnyErrorCode;
  readonly message: string;
  /** For `CODE_FAILED` / `CODE_INVALID`: what the code threw (name, message, and `code` of a bridge error). */
  readonly cause?: ThrownError;
  /** For `CODE_INVALID`: where in the user's code (1-based line and column; the wrapper is not counted). */
  readonly location?: CodeLocation;
}

export type CodeResult =
  | { readonly ok: true; readonly value: unknown; readonly logs: readonly CodeLog[]; readonly telemetry: CodeTelemetry }
  | {
      readonly ok: false;
      readonly error: CodeError;
      readonly logs?: readonly CodeLog[];
      readonly telemetry?: CodeTelemetry;
    };

export function emptyTelemetry(): CodeTelemetry {
  return {
    searches: 0,
    describes: 0,
    calls: 0,
    durationMs: 0,
    cut: { logs: false, result: false, calls: false, replies: false },
  };
}
