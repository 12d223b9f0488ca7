/**
 * A warm pool: children started ahead of time so a run skips process start-up.
 * Each child serves ONE run and is then killed, so no state passes between
 * runs; taking a child starts its replacement. `drain()` kills them all.
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
      if (idle.length === 0) refill();
      const child = idle.shift() ?? spawnSandbox(options);
      refill();
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
