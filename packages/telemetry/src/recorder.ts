/**
 * Orders and stores entries. Hooks fire synchronously but some entries are
 * finished later (token counts), so each run has a promise chain: entries
 * reach the store and the writer in event order, and `runEnd` waits for its
 * run's chain. A failing writer is reported once per run, never thrown into the kernel.
 *
 * A run that did nothing (a `tools list`, a `config check`: only its start and end, maybe diagnostics) writes no
 * session log: those entries wait until the run searches, describes, calls or sends a request, and are dropped with
 * its end otherwise (the in-memory store keeps them all).
 */
import type { Logger } from '@tool-search/kernel';
import type { SessionLogEntry } from '@tool-search/session-log';
import type { SessionLogWriter } from './session-log.js';
import type { EntryStore } from './store.js';
import { errorMessage } from '@tool-search/kernel';

/** Entries that alone do not make a session worth a file. */
const BOOKKEEPING: ReadonlySet<SessionLogEntry['type']> = new Set(['run-start', 'run-end', 'diagnostic']);

export class Recorder {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly failed = new Set<string>();
  /** Per run, its entries not written yet because it has done nothing so far. */
  private readonly held = new Map<string, SessionLogEntry[]>();

  constructor(
    private readonly store: EntryStore,
    private readonly writer: SessionLogWriter | undefined,
    private readonly logger: () => Logger,
  ) {}

  /** Queues an entry (or one still being finished) behind the run's earlier entries. */
  record(runId: string, entry: SessionLogEntry | Promise<SessionLogEntry | undefined>): void {
    const previous = this.chains.get(runId) ?? Promise.resolve();
    const next = previous.then(async () => {
      // An entry that failed to finish (it should not) is dropped, not allowed to break the chain; the log says so.
      const done = await Promise.resolve(entry).catch((error: unknown) => {
        this.logger().warn('a session log entry could not be finished and was dropped', { runId, cause: error });
        return undefined;
      });
      if (!done) return;
      this.store.add(done);
      await this.writeOrHold(done);
    });
    this.chains.set(runId, next);
  }

  /** Waits until every entry queued for the run is stored and written. */
  async settle(runId: string): Promise<void> {
    const chain = this.chains.get(runId);
    if (!chain) return;
    await chain;
    if (this.chains.get(runId) === chain) this.chains.delete(runId);
  }

  async flush(): Promise<void> {
    await Promise.all([...this.chains.keys()].map((runId) => this.settle(runId)));
  }

  private async writeOrHold(entry: SessionLogEntry): Promise<void> {
    if (!this.writer) return;
    const held = this.held.get(entry.runId);
    if (entry.type === 'run-start') {
      this.held.set(entry.runId, [entry]);
      return;
    }
    if (held && BOOKKEEPING.has(entry.type)) {
      // Still nothing done: a diagnostic waits with the start; the end drops them all.
      if (entry.type === 'run-end') this.held.delete(entry.runId);
      else held.push(entry);
      return;
    }
    this.held.delete(entry.runId);
    for (const earlier of held ?? []) await this.write(earlier);
    await this.write(entry);
  }

  private async write(entry: SessionLogEntry): Promise<void> {
    if (!this.writer) return;
    try {
      await this.writer.write(entry);
    } catch (error) {
      if (this.failed.has(entry.runId)) return;
      this.failed.add(entry.runId);
      this.logger().warn('session log write failed; later entries of this run may be missing', {
        runId: entry.runId,
        error: errorMessage(error),
      });
    }
  }
}
