/**
 * What the long-running commands (`gateway`, `inspect`, `serve mcp`) share: how they read a port flag.
 */
import { InvalidArgumentError } from 'commander';

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
