/**
 * One call's abort signal, following the run's and the caller's. Node 20's
 * `AbortSignal.any` keeps every composed signal alive as long as its sources
 * (~1.1 KB per call on a long-lived run), so this links by hand and unlinks
 * when the call is over.
 */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Stops following the sources; call it when the call has settled. */
  release(): void;
}

export function linkSignals(sources: readonly (AbortSignal | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const linked = sources.filter((source): source is AbortSignal => source !== undefined);
  const aborted = linked.find((source) => source.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, release: () => {} };
  }
  const onAbort = function (this: AbortSignal) {
    controller.abort(this.reason);
    release();
  };
  const release = () => {
    for (const source of linked) source.removeEventListener('abort', onAbort);
  };
  for (const source of linked) source.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, release };
}
