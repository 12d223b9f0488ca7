/**
 * The bridge from a downstream server's push-style request (a 2025-era
 * `elicitation/create` or `sampling/createMessage` sent during a call) to a
 * 2026-07-28 client, which is asked by `input_required` results: the call
 * keeps running downstream, parked under an unguessable `requestState`
 * bound to the caller, and each retry of the client carries the answers
 * (`inputResponses`) that resume it. The call ends with its result, or is
 * cancelled when the client does not come back within `idleMs`.
 *
 * Parked calls live in this process (a call in flight cannot move): the
 * `onPark` / `onRelease` hooks let parked-calls.ts record them in the state
 * store, so a retry landing on another replica is relayed here.
 */
import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';

/** One embedded request of an `input_required` result: its method and params, as the 2026-07-28 wire has them. */
export interface InputAsk {
  readonly method: 'elicitation/create' | 'sampling/createMessage';
  readonly params: Record<string, unknown>;
}

/** What a call round ends with: the call's result, or the requests the client must answer before retrying. */
export type BridgeStep =
  | { readonly done: CallToolResult }
  | {
      readonly inputRequests: Record<string, InputAsk>;
      readonly requestState: string;
    };

/** Asks the client for input; settles with the client's bare answer once a retry carries it. */
export type Ask = (request: InputAsk, signal: AbortSignal) => Promise<Record<string, unknown>>;

export interface InputBridge {
  /** Starts a call whose downstream requests are asked by `input_required` rounds. */
  start(owner: string, call: (ask: Ask, signal: AbortSignal) => Promise<CallToolResult>): Promise<BridgeStep>;
  /** Resumes a parked call with the client's answers; unknown, expired or another owner's state: `undefined`. */
  resume(owner: string, requestState: string, responses: Record<string, unknown>): Promise<BridgeStep> | undefined;
  /** Parked calls now. */
  readonly size: number;
  /** Cancels every parked call. */
  close(): void;
}

interface Question {
  readonly key: string;
  readonly request: InputAsk;
  readonly resolve: (answer: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;
  asked: boolean;
}

interface Parked {
  readonly owner: string;
  readonly controller: AbortController;
  readonly result: Promise<CallToolResult>;
  readonly questions: Map<string, Question>;
  wake?: () => void;
  timer?: NodeJS.Timeout;
}

export const DEFAULT_INPUT_IDLE_MS = 5 * 60_000;

/** Told when a call is parked (again: its time renewed) and when it leaves (done, expired, closed). */
export interface BridgeHooks {
  onPark?(requestState: string, owner: string, idleMs: number): void;
  onRelease?(requestState: string): void;
}

export function createInputBridge(idleMs = DEFAULT_INPUT_IDLE_MS, hooks: BridgeHooks = {}): InputBridge {
  const parked = new Map<string, Parked>();
  let counter = 0;

  /** Waits for the call's result or its next unasked question; parks it in the second case. */
  async function step(state: string, call: Parked): Promise<BridgeStep> {
    const waiting = () => [...call.questions.values()].filter((question) => !question.asked);
    if (waiting().length === 0) {
      const asked = new Promise<'asked'>((resolve) => {
        call.wake = () => resolve('asked');
      });
      const outcome = await Promise.race([call.result.then((done) => ({ done })), asked]);
      call.wake = undefined;
      if (outcome !== 'asked') {
        parked.delete(state);
        hooks.onRelease?.(state);
        return outcome;
      }
    }
    const inputRequests: Record<string, InputAsk> = {};
    for (const question of waiting()) {
      question.asked = true;
      inputRequests[question.key] = question.request;
    }
    parked.set(state, call);
    call.timer = setTimeout(() => expire(state), idleMs);
    call.timer.unref();
    hooks.onPark?.(state, call.owner, idleMs);
    return { inputRequests, requestState: state };
  }

  function expire(state: string): void {
    const call = parked.get(state);
    if (!call) return;
    parked.delete(state);
    hooks.onRelease?.(state);
    call.controller.abort(new Error('the client did not answer the input request in time'));
    for (const question of call.questions.values()) question.reject(new Error('input request expired'));
  }

  return {
    start(owner, run) {
      const state = randomBytes(24).toString('base64url');
      const controller = new AbortController();
      const questions = new Map<string, Question>();
      const call: Parked = {
        owner,
        controller,
        questions,
        result: undefined as unknown as Promise<CallToolResult>,
      };
      const ask: Ask = (request, signal) =>
        new Promise((resolve, reject) => {
          counter += 1;
          const key = `input-${counter}`;
          const settle = () => questions.delete(key);
          questions.set(key, {
            key,
            request,
            asked: false,
            resolve: (answer) => (settle(), resolve(answer)),
            reject: (error) => (settle(), reject(error)),
          });
          signal.addEventListener(
            'abort',
            () => questions.get(key)?.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')),
            {
              once: true,
            },
          );
          call.wake?.();
        });
      (call as { result: Promise<CallToolResult> }).result = run(ask, controller.signal);
      // A call that fails while parked fails its next round, not the process.
      call.result.catch(() => undefined);
      return step(state, call);
    },
    resume(owner, state, responses) {
      const call = parked.get(state);
      if (!call || call.owner !== owner) return undefined;
      parked.delete(state);
      clearTimeout(call.timer);
      for (const question of [...call.questions.values()]) {
        if (!question.asked) continue;
        const answer = responses[question.key];
        if (answer && typeof answer === 'object') question.resolve(answer as Record<string, unknown>);
        // Not answered: asked again in this round's result.
        else question.asked = false;
      }
      return step(state, call);
    },
    get size() {
      return parked.size;
    },
    close() {
      for (const state of [...parked.keys()]) expire(state);
    },
  };
}
