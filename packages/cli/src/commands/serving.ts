/**
 * What the long-running commands (`gateway`, `inspect`, `serve mcp`) share: how they learn to stop and how they read a port flag.
 */
import { InvalidArgumentError } from 'commander';

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

/** An integer flag between `min` and `max`. */
export function integer(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be an integer ${min}-${max}`);
    return n;
  };
}

/** A `--port` value: an integer 0-65535 (0: any free port). */
export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number 0-65535');
  return n;
}
