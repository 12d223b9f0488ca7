/**
 * A control tool that makes a call for the model (`tool_call`) reports that
 * call's status with its result, so the exposure answers with it at the top
 * level (`status: 'error'`, not `'ok'` with an error inside). The mark lives
 * in a WeakMap: a tool's own result cannot claim a status by its shape.
 */
import type { AnyErrorCode } from './error-registry.js';
import type { ToolResult } from './types.js';

export type CallStatus =
  | { readonly status: 'blocked'; readonly toolId: string; readonly reason: string; readonly by: string }
  | {
      readonly status: 'error';
      readonly toolId: string;
      readonly error: { readonly code: AnyErrorCode; readonly message: string };
    };

const marks = new WeakMap<ToolResult, CallStatus>();

/** Marks a control tool's result with the status of the call it made (use the returned object). */
export function withCallStatus(result: ToolResult, status: CallStatus): ToolResult {
  const copy: ToolResult = { ...result };
  marks.set(copy, status);
  return copy;
}

export function callStatusOf(result: ToolResult): CallStatus | undefined {
  return typeof result === 'object' && result !== null ? marks.get(result) : undefined;
}
