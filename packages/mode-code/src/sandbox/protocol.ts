/**
 * The bridge protocol between the parent and the sandbox child: one JSON
 * object per line. The child is treated as hostile: every line it writes is
 * size-checked and parsed here into a closed set of shapes; anything else is a
 * protocol violation and the child is killed.
 */

/** The only operations that reach the parent. */
export const BRIDGE_OPS = ['search', 'describe', 'call'] as const;
export type BridgeOp = (typeof BRIDGE_OPS)[number];

export type LogLevel = 'log' | 'warn' | 'error';

export interface ThrownError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

export type ChildMessage =
  | { readonly t: 'ready' }
  | { readonly t: 'fatal'; readonly reason: string }
  | { readonly t: 'bridge'; readonly id: number; readonly op: BridgeOp; readonly payload: unknown }
  | { readonly t: 'log'; readonly level: LogLevel; readonly text: string }
  | { readonly t: 'cut'; readonly what: 'logs' | 'calls' }
  | { readonly t: 'done'; readonly ok: true; readonly json: string | undefined; readonly cut: boolean }
  | {
      readonly t: 'done';
      readonly ok: false;
      readonly phase: 'compile' | 'run' | 'result' | 'setup';
      readonly error: ThrownError;
    };

export interface ChildLimits {
  readonly maxBridgeCalls: number;
  readonly maxPendingCalls: number;
  readonly maxLogBytes: number;
  readonly maxLogLines: number;
  readonly maxResultBytes: number;
}

export type ParentMessage =
  | { readonly t: 'run'; readonly code: string; readonly limits: ChildLimits }
  | { readonly t: 'reply'; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly t: 'reply'; readonly id: number; readonly ok: false; readonly error: BridgeError };

export interface BridgeError {
  readonly code: string;
  readonly message: string;
  readonly details?: unknown;
}

const LEVELS: readonly string[] = ['log', 'warn', 'error'];
const PHASES: readonly string[] = ['compile', 'run', 'result', 'setup'];

/** Parses one line from the child; `undefined` means a protocol violation. */
export function parseChildMessage(line: string): ChildMessage | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(raw)) return undefined;
  switch (raw.t) {
    case 'ready':
      return { t: 'ready' };
    case 'fatal':
      return { t: 'fatal', reason: String(raw.reason).slice(0, 500) };
    case 'bridge':
      if (!Number.isSafeInteger(raw.id) || !(BRIDGE_OPS as readonly unknown[]).includes(raw.op)) return undefined;
      return { t: 'bridge', id: raw.id as number, op: raw.op as BridgeOp, payload: raw.payload };
    case 'log':
      if (!LEVELS.includes(raw.level as string) || typeof raw.text !== 'string') return undefined;
      return { t: 'log', level: raw.level as LogLevel, text: raw.text };
    case 'cut':
      if (raw.what !== 'logs' && raw.what !== 'calls') return undefined;
      return { t: 'cut', what: raw.what };
    case 'done':
      if (raw.ok === true) {
        if (raw.json !== undefined && typeof raw.json !== 'string') return undefined;
        return { t: 'done', ok: true, json: raw.json, cut: raw.cut === true };
      }
      if (raw.ok === false && PHASES.includes(raw.phase as string) && isRecord(raw.error)) {
        return { t: 'done', ok: false, phase: raw.phase as 'run', error: thrownError(raw.error) };
      }
      return undefined;
    default:
      return undefined;
  }
}

function thrownError(raw: Record<string, unknown>): ThrownError {
  return {
    name: String(raw.name).slice(0, 200),
    message: String(raw.message).slice(0, 2000),
    ...(typeof raw.code === 'string' ? { code: raw.code.slice(0, 100) } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function encodeMessage(message: ParentMessage): string {
  return `${JSON.stringify(message)}\n`;
}
