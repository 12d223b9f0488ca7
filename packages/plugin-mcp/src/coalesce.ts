/**
 * Rate-limits a notification a server may send in a flood (`list_changed`):
 * the first one in a quiet period passes at once, the ones after it within
 * `windowMs` collapse into one trailing call at the end of the window. So a
 * server announcing a change 10,000 times a second costs its listeners a
 * couple of calls per window, and the last change is never dropped.
 */
export interface Coalesced {
  (): void;
  /** Drops a pending trailing call (the connection closed). */
  cancel(): void;
}

export function coalesce(fn: () => void, windowMs: number): Coalesced {
  let timer: NodeJS.Timeout | undefined;
  let pending = false;
  const open = () => {
    timer = setTimeout(() => {
      timer = undefined;
      if (!pending) return;
      pending = false;
      fn();
      open(); // the trailing call starts a window of its own
    }, windowMs);
    timer.unref?.();
  };
  const call = (() => {
    if (timer) {
      pending = true;
      return;
    }
    fn();
    open();
  }) as Coalesced;
  call.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    pending = false;
  };
  return call;
}

/** How often one server's `list_changed` notifications reach listeners, at most (plus one trailing). */
export const LIST_CHANGED_WINDOW_MS = 250;
