/**
 * Per-session counters in the shared state store (`telemetry:session:<id>`,
 * a counter group with a TTL renewed by every write), so replicas serving one
 * session add to the same numbers and any front end reads the sum with
 * `sessionCounters`. Counting only records: a store that is down costs the
 * numbers (one warning), never a call.
 */
import type { Logger } from '@tool-search/kernel';
import type { StateStore } from '@tool-search/state';

export const COUNTER_FIELDS = [
  'calls',
  'errors',
  'blocked',
  'searches',
  'zeroHitSearches',
  'requests',
  'tokens',
] as const;
export type CounterField = (typeof COUNTER_FIELDS)[number];
export type SessionCounters = Readonly<Record<CounterField, number>>;

/** Counters live this long past a session's last counted event. Default one day. */
export const DEFAULT_COUNTERS_TTL_MS = 24 * 60 * 60 * 1000;

const key = (sessionId: string) => `telemetry:session:${sessionId}`;

/** The counters of a session, summed over every replica that served it (zeros when none). */
export async function sessionCounters(state: StateStore, sessionId: string): Promise<SessionCounters> {
  const stored = await state.counters(key(sessionId));
  return Object.fromEntries(COUNTER_FIELDS.map((field) => [field, stored[field] ?? 0])) as SessionCounters;
}

export class CounterWriter {
  readonly #pending = new Set<Promise<unknown>>();
  #warned = false;

  constructor(
    readonly state: StateStore,
    readonly ttlMs: number,
    readonly logger: () => Logger,
  ) {}

  add(sessionId: string, counts: Partial<Record<CounterField, number>>): void {
    for (const [field, by] of Object.entries(counts)) {
      if (!by) continue;
      const write = this.state.increment(key(sessionId), field, by, this.ttlMs).then(
        () => (this.#warned = false), // warn again on the next outage
        (error: unknown) => this.#failed(error),
      );
      this.#pending.add(write);
      void write.finally(() => this.#pending.delete(write));
    }
  }

  async flush(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }

  #failed(error: unknown): void {
    if (this.#warned) return;
    this.#warned = true;
    this.logger().warn(
      'session counters could not be written to the state store; counting goes on, the numbers are incomplete',
      { error: String(error) },
    );
  }
}
