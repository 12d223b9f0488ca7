/**
 * Client tool calls made inside `tool_call` or `tool_search_code`: the kernel
 * hands them to the run's owner (`RunOptions.onClientCall`). A turn then stops
 * half-way: the HTTP caller gets those calls as `tool_calls`, and the turn goes
 * on, with the same run, the same script still waiting, when a later request
 * brings their results (`tool` messages with those ids). The client's result
 * is the result of the model's call. A suspended turn nobody resumes is
 * abandoned after `ttlMs`: its run is closed and the waiting calls end.
 */
import type { ClientCall, Run, ToolCallOutcome, ToolResult } from '@tool-search/kernel';

/** A turn that waits for its client: `resume` delivers the results and returns the turn's next answer. */
export interface SuspendedTurn<T> {
  readonly callIds: readonly string[];
  resume(results: ReadonlyMap<string, string>): Promise<T>;
  abandon(): void;
}

/** What a turn loop uses while it drives one run. */
export interface TurnControl<T> {
  /** Pass as `RunOptions.onClientCall`. */
  readonly take: (call: ClientCall) => void;
  /**
   * The outcome of `work` (a model's call through the exposure). While it waits for client calls, the turn answers
   * its caller with `answer(calls)` and continues here once their results arrive.
   */
  outcome(
    run: Run,
    work: Promise<ToolCallOutcome>,
    answer: (calls: readonly ClientCall[]) => T,
  ): Promise<ToolCallOutcome>;
}

export class TurnAbandoned extends Error {
  constructor() {
    super('the client did not send the results of the handed-off tool calls in time; the turn was abandoned');
    this.name = 'TurnAbandoned';
  }
}

/**
 * Runs `drive` detached and resolves with its first answer: the final one, or a suspension (`suspended` set on it).
 * Every later answer is the promise `suspended.resume` returns.
 */
export function suspendableTurn<T extends object>(
  drive: (control: TurnControl<T & { suspended?: SuspendedTurn<T> }>) => Promise<T>,
  ttlMs: number,
): Promise<T & { suspended?: SuspendedTurn<T> }> {
  type Answer = T & { suspended?: SuspendedTurn<T> };
  let deliver: (answer: Answer) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const nextAnswer = () =>
    new Promise<Answer>((resolve, reject) => {
      deliver = resolve;
      fail = reject;
    });
  const first = nextAnswer();
  const queue: ClientCall[] = [];
  let wake: (() => void) | undefined;

  const control: TurnControl<Answer> = {
    take(call) {
      queue.push(call);
      wake?.();
    },
    async outcome(run, work, answer) {
      for (;;) {
        const next = await raceHandoff(work);
        if ('done' in next) return next.done;
        const results = await suspend(answer(next.calls), next.calls);
        for (const call of next.calls) run.resolveClientCall(call.callId, toResult(results.get(call.callId), call));
      }
    },
  };

  /** The work's outcome, or the client calls handed off meanwhile (collected over one turn of the event loop). */
  async function raceHandoff(
    work: Promise<ToolCallOutcome>,
  ): Promise<{ done: ToolCallOutcome } | { calls: ClientCall[] }> {
    if (!queue.length) {
      const woke = new Promise<undefined>((resolve) => (wake = () => resolve(undefined)));
      const done = await Promise.race([work.then((outcome) => ({ done: outcome })), woke]);
      wake = undefined;
      if (done) return done;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { calls: queue.splice(0) };
  }

  function suspend(answer: Answer, calls: readonly ClientCall[]): Promise<ReadonlyMap<string, string>> {
    return new Promise((resume, abandon) => {
      const timer = setTimeout(() => suspended.abandon(), ttlMs);
      timer.unref?.();
      let settled = false;
      const suspended: SuspendedTurn<T> = {
        callIds: calls.map((call) => call.callId),
        resume(results) {
          if (settled) return Promise.reject(new TurnAbandoned());
          settled = true;
          clearTimeout(timer);
          const next = nextAnswer();
          resume(results);
          return next;
        },
        abandon() {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          abandon(new TurnAbandoned());
        },
      };
      deliver({ ...answer, suspended });
    });
  }

  drive(control).then(
    (answer) => deliver(answer as Answer),
    (error: unknown) => fail(error),
  );
  // A drive that ends after its caller went away (abandoned) must not surface as an unhandled rejection.
  first.catch(() => undefined);
  return first;
}

function toResult(text: string | undefined, call: ClientCall): ToolResult {
  if (text === undefined)
    return {
      content: [{ type: 'text', text: `The client sent no result for ${call.name} (${call.callId}).` }],
      isError: true,
    };
  return { content: [{ type: 'text', text }] };
}
