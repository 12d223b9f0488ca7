/**
 * A counting gate: at most `size` sandboxes run at once; later runs wait in
 * FIFO order. A waiting run that is cancelled leaves the queue. `acquire`
 * resolves to the release function (idempotent).
 */
export interface Gate {
  acquire(signal: AbortSignal): Promise<() => void>;
  readonly active: number;
  readonly waiting: number;
}

export function createGate(size: number): Gate {
  let active = 0;
  const queue: { readonly grant: () => void; readonly signal: AbortSignal }[] = [];

  const next = () => {
    while (active < size && queue.length > 0) {
      const entry = queue.shift()!;
      if (entry.signal.aborted) continue;
      active += 1;
      entry.grant();
    }
  };
  const releaser = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      active -= 1;
      next();
    };
  };

  return {
    acquire(signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (active < size && queue.length === 0) {
        active += 1;
        return Promise.resolve(releaser());
      }
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const at = queue.indexOf(entry);
          if (at !== -1) queue.splice(at, 1);
          reject(signal.reason);
        };
        const entry = {
          signal,
          grant: () => {
            signal.removeEventListener('abort', onAbort);
            resolve(releaser());
          },
        };
        signal.addEventListener('abort', onAbort, { once: true });
        queue.push(entry);
      });
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
