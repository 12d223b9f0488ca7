/**
 * Client tool calls made inside a control tool or code (`tool_call`,
 * `openclaw.tools.call`): decided here once for every front end. The run's
 * owner (the gateway) takes them through `RunOptions.onClientCall`, hands each
 * to its client, and answers with `run.resolveClientCall`; the nested caller
 * waits for that answer as the call's result. Without an owner that takes
 * them, such a call fails with `CLIENT_TOOL_NOT_EXECUTABLE`. A model's own call
 * of a client tool (direct, a hidden directory name, `run.call`) stays a
 * `pending` outcome for its caller to hand back.
 */
import { ErrorCode, ToolSearchError } from './errors.js';
import type { CallOrigin, ToolCall, ToolResult } from './types.js';

/** A client tool call waiting for the client's result. */
export interface ClientCall {
  readonly callId: string;
  readonly toolId: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Where it was made: `tool_call` or `code`. */
  readonly origin: CallOrigin;
}

export interface RunOptions {
  /**
   * Takes the client tool calls made inside control tools and code: give `call` to the client and answer with
   * `run.resolveClientCall(call.callId, result)`. The nested caller waits (bounded by its own signal, e.g. `codeTimeoutMs`).
   */
  readonly onClientCall?: (call: ClientCall) => void;
}

/** Origins where the model's call was something else (a control tool, a script): the client call must be handed off. */
const NESTED: ReadonlySet<CallOrigin> = new Set(['tool_call', 'code']);

export interface ClientCallBroker {
  /** Whether a call from `origin` is handed off (or refused) here rather than returned as `pending`. */
  nested(origin: CallOrigin): boolean;
  /** Hands the call to the owner and waits for its answer; throws a coded error when no owner takes it or `signal` ends it. */
  wait(call: ToolCall, signal: AbortSignal): Promise<ToolResult>;
  resolve(callId: string, result: ToolResult): boolean;
  readonly pending: readonly ClientCall[];
}

export function createClientCallBroker(options: RunOptions): ClientCallBroker {
  const waiting = new Map<string, { call: ClientCall; resolve: (result: ToolResult) => void }>();
  return {
    nested: (origin) => NESTED.has(origin),
    wait(call, signal) {
      const onClientCall = options.onClientCall;
      if (!onClientCall) {
        return Promise.reject(
          new ToolSearchError(
            ErrorCode.CLIENT_TOOL_NOT_EXECUTABLE,
            `${call.tool.id} is executed by the client, and this front end cannot hand it back from ${call.origin}; call the tool "${call.tool.name}" directly instead`,
            { toolId: call.tool.id, details: { name: call.tool.name, origin: call.origin } },
          ),
        );
      }
      const handed: ClientCall = Object.freeze({
        callId: call.callId,
        toolId: call.tool.id,
        name: call.tool.name,
        args: call.args,
        origin: call.origin,
      });
      return new Promise<ToolResult>((resolve, reject) => {
        const done = () => {
          waiting.delete(handed.callId);
          signal.removeEventListener('abort', onAbort);
        };
        const onAbort = () => {
          done();
          reject(
            new ToolSearchError(
              ErrorCode.TOOL_CALL_ABORTED,
              `The client did not answer ${call.tool.id} before the call was cancelled`,
              { toolId: call.tool.id },
            ),
          );
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.set(handed.callId, { call: handed, resolve: (result) => (done(), resolve(result)) });
        onClientCall(handed);
      });
    },
    resolve(callId, result) {
      const entry = waiting.get(callId);
      if (!entry) return false;
      entry.resolve(result);
      return true;
    },
    get pending() {
      return [...waiting.values()].map((entry) => entry.call);
    },
  };
}
