/**
 * Helpers of connection.ts: which failure reason a thrown error stands for,
 * the OAuth error an SDK error may wrap, and a promise bounded by a signal.
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { ToolSearchError } from '@tool-search/kernel';
import { ListError } from './list-tools.js';
import { McpErrors } from './errors.js';

/** Why a server is missing from a run (`details.reason` of `MCP_SERVER_FAILED`). */
export type McpFailureReason = 'spawn' | 'exit' | 'timeout' | 'protocol' | 'list';

/** An OAuth failure, as thrown by the OAuth fetch (the SDK may wrap it in its own error as `cause`). */
export function authError(error: unknown): ToolSearchError | undefined {
  for (
    let current = error, depth = 0;
    current && depth < 4;
    current = (current as { cause?: unknown }).cause, depth += 1
  ) {
    if (
      ToolSearchError.isInstance(current) &&
      (current.code === McpErrors.MCP_AUTH_REQUIRED || current.code === McpErrors.MCP_AUTH_FAILED)
    )
      return current;
  }
  return undefined;
}

export function failureReason(error: unknown, timedOut: boolean): McpFailureReason {
  if (timedOut) return 'timeout';
  if (error instanceof ListError) return 'list';
  // A failed version probe (`ERA_NEGOTIATION_FAILED`) carries what broke it as its cause.
  for (
    let current = error, depth = 0;
    current && depth < 4;
    current = (current as { cause?: unknown }).cause, depth += 1
  ) {
    if (current instanceof SdkError && current.code === SdkErrorCode.ConnectionClosed) return 'exit';
    // The SDK says only in words that the server closed during the `server/discover` probe.
    if (
      current instanceof SdkError &&
      current.code === SdkErrorCode.EraNegotiationFailed &&
      /connection closed/i.test(current.message)
    )
      return 'exit';
    if (current instanceof SdkError && current.code === SdkErrorCode.RequestTimeout) return 'timeout';
    const code = current instanceof SdkError ? undefined : (current as { code?: unknown }).code;
    // A write to a server that already exited fails with EPIPE (or ECONNRESET): it started, then ended. Which of
    // that and "connection closed" arrives first is a race the machine's load decides.
    if (code === 'EPIPE' || code === 'ECONNRESET') return 'exit';
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return 'spawn';
  }
  return 'protocol';
}

export function withDeadline<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
