/**
 * A warm pool: children started ahead of time so a run skips process start-up.
 * Each child serves ONE run and is then killed, so no state passes between
 * runs. The replacement is started once the borrowed child has exited (after
 * its result was delivered), not when it is taken: a child starting up would
 * compete for the CPU with the run it is meant to speed up. `drain()` kills them all.
 */
import { spawnSandbox, type SandboxChild, type SpawnOptions } from './process.js';

export interface SandboxPool {
  /** A fresh child: a warm one when available, otherwise a newly spawned one. */
  take(): SandboxChild;
  readonly size: number;
  drain(): Promise<void>;
}

/** Starts `size` children right away. */
export function createSandboxPool(size: number, options: SpawnOptions): SandboxPool {
  const idle: SandboxChild[] = [];
  let drained = false;

  const refill = () => {
    while (!drained && idle.length < size) {
      let child: SandboxChild;
      try {
        child = spawnSandbox(options);
      } catch {
        return;
      }
      idle.push(child);
      // A warm child that dies while idle leaves the pool (and is not replaced in a loop).
      void child.exited.then(() => {
        const at = idle.indexOf(child);
        if (at !== -1) idle.splice(at, 1);
      });
    }
  };

  refill();
  return {
    take() {
      const child = idle.shift() ?? spawnSandbox(options);
      // setImmediate: the run's result reaches its caller (promise jobs) before the replacement is spawned.
      void child.exited.then(() => setImmediate(refill));
      return child;
    },
    get size() {
      return idle.length;
    },
    async drain() {
      drained = true;
      await Promise.all(idle.splice(0).map((child) => child.kill()));
    },
  };
}
