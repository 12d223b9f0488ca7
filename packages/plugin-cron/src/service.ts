/**
 * The scheduler: one croner job per enabled cron job, each run a gateway turn
 * through the session host (an isolated `cron` session under the session that
 * added the job, or that session itself for `sessionTarget: "main"`), logged
 * to the job's run log and folded into its state. Every replica schedules
 * every job; a scheduled fire first claims its slot in the job store, and only
 * the replica that gets it runs the turn.
 */
import { randomUUID } from 'node:crypto';
import type { Cron } from 'croner';
import { ToolSearchError, type Logger, errorMessage } from '@tool-search/kernel';
import type { SessionHost } from '@tool-search/sessions';
import { anchorOf, cronFor, invalid, slotOf, type CronJob } from './jobs.js';
import { MAX_JOBS } from './shared.js';
import type { JobStore, RunRecord } from './store.js';
import { CronErrors } from './errors.js';

/** Longest reply text kept in a run record. */
const REPLY_CHARS = 2_000;

export interface CronServiceOptions {
  readonly store: JobStore;
  readonly host: SessionHost;
  readonly runAgent: (agentId: string | undefined) => { agentId?: string };
  readonly logger: () => Logger;
  /** This replica's id, written into run records (with a shared store). */
  readonly replica?: string;
}

export class CronService {
  readonly store: JobStore;
  readonly #options: CronServiceOptions;
  readonly #jobs = new Map<string, CronJob>();
  readonly #timers = new Map<string, Cron>();
  readonly #running = new Set<Promise<unknown>>();
  #booted: Promise<void> | undefined;
  #unwatch: (() => Promise<void>) | undefined;
  #resync: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: CronServiceOptions) {
    this.#options = options;
    this.store = options.store;
  }

  /** Loads and schedules the jobs; a store that loads synchronously (files) throws here, at plugin registration. */
  start(): void {
    // Subscribed before loading: a change another replica makes while the jobs load is not missed.
    const watching = this.#unwatch ? Promise.resolve() : this.#watch();
    const loaded = this.store.load();
    this.#booted = Promise.all([watching, loaded]).then(([, jobs]) => this.#boot(jobs));
    this.#booted.catch((error: unknown) =>
      this.#options
        .logger()
        .warn('cron jobs could not be loaded; the next cron call tries again', { error: String(error) }),
    );
  }

  /** Resolves once the jobs are loaded (retrying a load that failed, such as a store outage at start). */
  async ready(): Promise<void> {
    try {
      await this.#booted;
    } catch {
      this.start();
      await this.#booted;
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#resync);
    for (const timer of this.#timers.values()) timer.stop();
    this.#timers.clear();
    await this.#unwatch?.().catch(() => undefined); // stopping: a watch that cannot be removed dies with the service
    await Promise.allSettled([...this.#running]);
  }

  list(): CronJob[] {
    return [...this.#jobs.values()].map((job) => this.#withNext(job));
  }

  get(jobId: string): CronJob {
    const job = this.#jobs.get(jobId);
    if (!job)
      throw new ToolSearchError(CronErrors.CRON_JOB_UNKNOWN, `no cron job ${jobId}; cron list shows the jobs`, {
        details: { jobId },
      });
    return this.#withNext(job);
  }

  /** Makes a job another replica just added known here (its change message may still be on the way). */
  async known(jobId: string): Promise<void> {
    if (this.#jobs.has(jobId)) return;
    const stored = await this.store.fetch(jobId);
    if (stored) this.#adopt(stored);
  }

  async put(job: CronJob): Promise<CronJob> {
    if (!this.#jobs.has(job.jobId) && this.#jobs.size >= MAX_JOBS)
      throw invalid(`there are ${MAX_JOBS} cron jobs already (the most kept); remove one first`);
    const all = new Map(this.#jobs).set(job.jobId, job);
    await this.store.put(job, [...all.values()]);
    this.#jobs.set(job.jobId, job);
    this.#schedule(job);
    return this.#withNext(job);
  }

  async remove(jobId: string): Promise<void> {
    this.get(jobId);
    await this.store.remove(
      jobId,
      [...this.#jobs.values()].filter((job) => job.jobId !== jobId),
    );
    this.#forget(jobId);
  }

  /** Starts a run now; `done` settles with its record. */
  run(jobId: string, trigger: RunRecord['trigger'], slotMs?: number): { runId: string; done: Promise<RunRecord> } {
    const job = this.get(jobId);
    const runId = randomUUID();
    const done = this.#execute(job, trigger, runId, slotMs);
    this.#running.add(done);
    void done.finally(() => this.#running.delete(done));
    return { runId, done };
  }

  nextWakeAt(): string | undefined {
    return this.list()
      .flatMap((job) => (job.state.nextRunAt ? [job.state.nextRunAt] : []))
      .sort()[0];
  }

  async #watch(): Promise<void> {
    const unwatch = await this.store.watch((jobId) => void this.#reload(jobId));
    if (this.#stopped) return unwatch(); // shut down while it subscribed
    this.#unwatch = unwatch;
  }

  #boot(jobs: readonly CronJob[]): void {
    for (const job of jobs) this.#adopt(job);
    if (this.store.resyncMs && !this.#resync && !this.#stopped) {
      this.#resync = setInterval(() => void this.#reloadAll(), this.store.resyncMs);
      this.#resync.unref();
    }
  }

  /** Every job as stored now: added, changed and removed ones alike. */
  async #reloadAll(): Promise<void> {
    try {
      const jobs = await this.store.load();
      const ids = new Set(jobs.map((job) => job.jobId));
      // A job missing from the list may have been added here while it loaded: it goes only if it is gone now.
      for (const jobId of [...this.#jobs.keys()])
        if (!ids.has(jobId) && !(await this.store.fetch(jobId))) this.#forget(jobId);
      for (const job of jobs) this.#adopt(job);
    } catch (error) {
      this.#options.logger().warn('cron jobs could not be reloaded from the job store', { error: String(error) });
    }
  }

  /** Another replica changed or removed a job. */
  async #reload(jobId: string): Promise<void> {
    try {
      const fresh = await this.store.fetch(jobId);
      if (fresh) this.#adopt(fresh);
      else this.#forget(jobId);
    } catch (error) {
      this.#options.logger().warn('a changed cron job could not be reloaded', { jobId, error: String(error) });
    }
  }

  /** Takes a job as stored; its timer is remade only when what it fires on changed. */
  #adopt(fresh: CronJob): void {
    const old = this.#jobs.get(fresh.jobId);
    if (old && Date.parse(fresh.updatedAt) < Date.parse(old.updatedAt)) return; // read before a change made here
    this.#jobs.set(fresh.jobId, fresh);
    if (!old || old.enabled !== fresh.enabled || JSON.stringify(old.schedule) !== JSON.stringify(fresh.schedule))
      this.#schedule(fresh);
  }

  /** A scheduled fire: the run is this replica's only if it claims the slot. */
  async #fire(jobId: string): Promise<void> {
    const job = this.#jobs.get(jobId);
    if (!job || this.#stopped) return;
    const slotMs = slotOf(job.schedule, anchorOf(job), Date.now());
    let mine: boolean;
    try {
      mine = await this.store.claim(jobId, slotMs);
    } catch (error) {
      // Fail closed: without the lock no replica may know it runs alone, so this slot is skipped.
      this.#options.logger().warn('cron: the job store did not answer; this scheduled run is skipped', {
        jobId,
        slot: new Date(slotMs).toISOString(),
        error: String(error),
      });
      return;
    }
    if (mine) await this.run(jobId, 'schedule', slotMs).done;
  }

  async #execute(
    job: CronJob,
    trigger: RunRecord['trigger'],
    runId: string,
    slotMs: number | undefined,
  ): Promise<RunRecord> {
    const { host, runAgent, replica } = this.#options;
    const startedAt = new Date().toISOString();
    const sessionId =
      job.sessionTarget === 'main' ? job.createdBy : `cron-${job.jobId.slice(0, 8)}-${runId.slice(0, 8)}`;
    const agent = runAgent(job.agentId);
    if (job.sessionTarget === 'isolated') {
      await host.store.upsert(sessionId, {
        kind: 'cron',
        parentId: job.createdBy,
        label: job.name ?? `cron ${job.jobId}`,
        ...agent,
      });
    }
    let outcome: Pick<RunRecord, 'status' | 'reply' | 'error'>;
    try {
      const reply = await host.turn(sessionId, job.payload.message, agent);
      outcome = { status: 'ok', ...(reply.content ? { reply: reply.content.slice(0, REPLY_CHARS) } : {}) };
    } catch (error) {
      outcome = { status: 'error', error: errorMessage(error) };
    }
    const sessionKey = (await host.store.get(sessionId))?.key ?? sessionId;
    const record: RunRecord = {
      runId,
      jobId: job.jobId,
      trigger,
      ...(slotMs !== undefined ? { scheduledAt: new Date(slotMs).toISOString() } : {}),
      ...(replica ? { replica } : {}),
      sessionKey,
      startedAt,
      finishedAt: new Date().toISOString(),
      ...outcome,
    };
    try {
      await this.store.appendRun(record);
      await this.#record(job.jobId, record);
    } catch (error) {
      this.#options
        .logger()
        .warn('a cron run could not be logged in the job store', { jobId: job.jobId, runId, error: String(error) });
    }
    return record;
  }

  /** Folds a finished run into the job as stored now (another replica may have changed it meanwhile). */
  async #record(jobId: string, record: RunRecord): Promise<void> {
    const current = await this.store.fetch(jobId);
    if (!current) return this.#forget(jobId); // removed while it ran
    if (
      current.schedule.kind === 'at' &&
      record.status === 'ok' &&
      current.deleteAfterRun !== false &&
      record.trigger === 'schedule'
    ) {
      await this.store.remove(
        jobId,
        [...this.#jobs.values()].filter((job) => job.jobId !== jobId),
      );
      return this.#forget(jobId);
    }
    const state = {
      ...current.state,
      runs: current.state.runs + 1,
      lastRunAt: record.startedAt,
      lastStatus: record.status,
    };
    const { lastError: _lastError, ...kept } = state as typeof state & { lastError?: string };
    const next = { ...current, state: record.error ? { ...kept, lastError: record.error } : kept };
    this.#jobs.set(jobId, next);
    await this.store.put(next, [...this.#jobs.values()]);
  }

  #forget(jobId: string): void {
    this.#jobs.delete(jobId);
    this.#timers.get(jobId)?.stop();
    this.#timers.delete(jobId);
  }

  #schedule(job: CronJob): void {
    this.#timers.get(job.jobId)?.stop();
    this.#timers.delete(job.jobId);
    if (!job.enabled || this.#stopped) return;
    // A one-time job whose time has passed does not fire (croner finds no next run).
    const fire = () =>
      this.#fire(job.jobId).catch((error: unknown) =>
        this.#options.logger().warn('a scheduled cron run failed', { jobId: job.jobId, error: String(error) }),
      );
    const timer = cronFor(job.schedule, fire, anchorOf(job));
    timer.resume();
    this.#timers.set(job.jobId, timer);
  }

  #withNext(job: CronJob): CronJob {
    const next = this.#timers.get(job.jobId)?.nextRun();
    const { nextRunAt: _nextRunAt, ...state } = job.state;
    return { ...job, state: next ? { ...state, nextRunAt: next.toISOString() } : state };
  }
}
