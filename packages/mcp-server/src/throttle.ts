/**
 * The budget for what downstream servers send a client during its calls:
 * a token bucket per MCP session (2025 era) or per request (2026-07-28),
 * so a server logging 1,000 lines a second reaches the client at the
 * budget's rate, not one for one. A log over the budget is counted and
 * dropped; progress over it is held, the latest replacing the one before,
 * and sent when a token is free or when the call ends (progress is never
 * lost entirely). When the call ends, one log line says how many were held
 * back.
 */
import type { LoggingMessageNotification, Progress, ServerNotification } from '@modelcontextprotocol/server';

/** At most `burst` notifications at once, then `perSecond` a second. */
export interface NotificationBudget {
  readonly burst: number;
  readonly perSecond: number;
}

/** The budget of each MCP session (2025 era) or request (2026-07-28). */
export const NOTIFICATION_BUDGET: NotificationBudget = Object.freeze({ burst: 100, perSecond: 50 });

export interface TokenBucket {
  take(): boolean;
  /** Milliseconds until the next token. */
  wait(): number;
}

export function tokenBucket(budget: NotificationBudget = NOTIFICATION_BUDGET): TokenBucket {
  let tokens = budget.burst;
  let at = Date.now();
  const refill = () => {
    const now = Date.now();
    tokens = Math.min(budget.burst, tokens + ((now - at) * budget.perSecond) / 1000);
    at = now;
  };
  return {
    take() {
      refill();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    wait() {
      refill();
      return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 1000) / budget.perSecond);
    },
  };
}

/** One call's notifications through its session's bucket. */
export interface CallNotices {
  log(params: LoggingMessageNotification['params']): void;
  progress(progress: Progress): void;
  /** Sends the held progress and the count of what was held back, waits for every send; later notices are dropped. */
  flush(): Promise<void>;
}

export interface CallNoticesOptions {
  readonly bucket: TokenBucket;
  /** Sends one notification on the call's stream (never rejects). */
  readonly send: (notification: ServerNotification) => Promise<void>;
  /** The call's progress token: set when the client asked for progress. */
  readonly token?: string | number;
  /** The line telling the client how many notifications were held back (omitted: none is sent). */
  readonly suppressed?: (count: number) => LoggingMessageNotification['params'] | undefined;
}

export function callNotices(options: CallNoticesOptions): CallNotices {
  const { bucket, send, token } = options;
  const sending = new Set<Promise<void>>();
  let held: Progress | undefined;
  let timer: NodeJS.Timeout | undefined;
  let dropped = 0;
  let ended = false;

  const out = (notification: ServerNotification) => {
    const sent = send(notification).finally(() => sending.delete(sent));
    sending.add(sent);
  };
  const sendProgress = (progress: Progress) =>
    out({ method: 'notifications/progress', params: { ...progress, progressToken: token! } });
  // Held progress goes out at the next free token (only the latest of those held meanwhile).
  const later = () => {
    timer ??= setTimeout(
      () => {
        timer = undefined;
        if (!held || ended) return;
        if (!bucket.take()) return later();
        sendProgress(held);
        held = undefined;
      },
      Math.min(bucket.wait(), 1_000),
    );
    timer.unref();
  };

  return {
    log(params) {
      if (ended) return;
      if (bucket.take()) out({ method: 'notifications/message', params });
      else dropped++;
    },
    progress(progress) {
      if (ended || token === undefined) return;
      if (held) dropped++; // the held one is replaced by this later one
      held = undefined;
      if (bucket.take()) return sendProgress(progress);
      held = progress;
      later();
    },
    async flush() {
      ended = true;
      if (timer) clearTimeout(timer);
      if (held) sendProgress(held);
      held = undefined;
      const line = dropped > 0 ? options.suppressed?.(dropped) : undefined;
      if (line) out({ method: 'notifications/message', params: line });
      await Promise.all([...sending]);
    },
  };
}

/** The log line that ends a throttled call (`logger` "tool-search"). */
export function suppressedLine(count: number): LoggingMessageNotification['params'] {
  const { burst, perSecond } = NOTIFICATION_BUDGET;
  return {
    level: 'warning',
    logger: 'tool-search',
    data: `${count} log or progress notifications from downstream servers were not forwarded during this call: over this session's budget (${burst} at once, then ${perSecond} a second; the latest progress is always sent)`,
  };
}
