/**
 * What the long-running commands (`gateway`, `inspect`) share: how they learn to stop and how they read a port flag.
 */
import { InvalidArgumentError } from 'commander';

/** Resolves on SIGINT, SIGTERM or the caller's abort. */
export function stopped(signal: AbortSignal | undefined): Promise<void> {
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
  });
}

/** A `--port` value: an integer 0-65535 (0: any free port). */
export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number 0-65535');
  return n;
}
