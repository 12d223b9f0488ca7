/** How a long-running front end (the gateway, `serve mcp`, `inspect`) learns to stop. */

/** Resolves on SIGINT, SIGTERM, the caller's abort, or `ended` (e.g. the client went away). */
export function stopped(signal: AbortSignal | undefined, ended?: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    if (signal?.aborted) return done();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    signal?.addEventListener('abort', done, { once: true });
    void ended?.then(done);
  });
}
