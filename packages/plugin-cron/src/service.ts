/**
 * The scheduler: one croner job per enabled cron job, each run a gateway turn
 * through the session host (an isolated `cron` session under the session that
 * added the job, or that session itself for `sessionTarget: "main"`), logged
 * to the job's run log and folded into its state.
 */
import { randomUUID } from 'node:crypto';
import type { Cron } from 'croner';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import type { SessionHost } from '@tool-search/sessions';
import { cronFor, type CronJob } from './jobs.js';
import type { JobFiles, RunRecord } from './store.js';

/** Longest reply text kept in a run record. */
const REPLY_CHARS = 2_000;

export class CronService {
  readonly #jobs = new Map<string, CronJob>();
  readonly #timers = new Map<string, Cron>();
  readonly #running = new Set<Promise<unknown>>();

  constructor(
    readonly files: JobFiles,
    readonly host: SessionHost,
    readonly runAgent: (agentId: string | undefined) => { agentId?: string },
  ) {}

  start(): void {
    for (const job of this.files.load()) {
      this.#jobs.set(job.jobId, job);
      this.#schedule(job);
    }
  }

  async stop(): Promise<void> {
    for (const timer of this.#timers.values()) timer.stop();
    this.#timers.clear();
    await Promise.allSettled([...this.#running]);
  }

  list(): CronJob[] {
    return [...this.#jobs.values()].map((job) => this.#withNext(job));
  }

  get(jobId: string): CronJob {
    const job = this.#jobs.get(jobId);
    if (!job) throw new ToolSearchError(ErrorCode.CRON_JOB_UNKNOWN, `no cron job ${jobId}; cron list shows the jobs`, { details: { jobId } });
    return this.#withNext(job);
  }

  put(job: CronJob): CronJob {
    this.#jobs.set(job.jobId, job);
    this.#schedule(job);
    this.#save();
    return this.#withNext(job);
  }

  remove(jobId: string): void {
    this.get(jobId);
    this.#jobs.delete(jobId);
    this.#timers.get(jobId)?.stop();
    this.#timers.delete(jobId);
    this.#save();
    this.files.removeRuns(jobId);
  }

  /** Starts a run now; `done` settles with its record. */
  run(jobId: string, trigger: RunRecord['trigger']): { runId: string; done: Promise<RunRecord> } {
    const job = this.get(jobId);
    const runId = randomUUID();
    const done = this.#execute(job, trigger, runId);
    this.#running.add(done);
    void done.finally(() => this.#running.delete(done));
    return { runId, done };
  }

  nextWakeAt(): string | undefined {
    return this.list().flatMap((job) => (job.state.nextRunAt ? [job.state.nextRunAt] : [])).sort()[0];
  }

  async #execute(job: CronJob, trigger: RunRecord['trigger'], runId: string): Promise<RunRecord> {
    const startedAt = new Date().toISOString();
    const sessionId = job.sessionTarget === 'main' ? job.createdBy : `cron-${job.jobId.slice(0, 8)}-${runId.slice(0, 8)}`;
    const agent = this.runAgent(job.agentId);
    if (job.sessionTarget === 'isolated') {
      await this.host.store.upsert(sessionId, { kind: 'cron', parentId: job.createdBy, label: job.name ?? `cron ${job.jobId}`, ...agent });
    }
    let outcome: Pick<RunRecord, 'status' | 'reply' | 'error'>;
    try {
      const reply = await this.host.turn(sessionId, job.payload.message, agent);
      outcome = { status: 'ok', ...(reply.content ? { reply: reply.content.slice(0, REPLY_CHARS) } : {}) };
    } catch (error) {
      outcome = { status: 'error', error: error instanceof Error ? error.message : String(error) };
    }
    const sessionKey = (await this.host.store.get(sessionId))?.key ?? sessionId;
    const record: RunRecord = { runId, jobId: job.jobId, trigger, sessionKey, startedAt, finishedAt: new Date().toISOString(), ...outcome };
    this.files.appendRun(record);
    const current = this.#jobs.get(job.jobId);
    if (!current) return record; // removed while it ran
    if (current.schedule.kind === 'at' && record.status === 'ok' && current.deleteAfterRun !== false && trigger === 'schedule') {
      this.remove(job.jobId);
      return record;
    }
    const state = { ...current.state, runs: current.state.runs + 1, lastRunAt: startedAt, lastStatus: record.status };
    const { lastError: _lastError, ...kept } = state as typeof state & { lastError?: string };
    this.#jobs.set(job.jobId, { ...current, state: record.error ? { ...kept, lastError: record.error } : kept });
    this.#save();
    return record;
  }

  #schedule(job: CronJob): void {
    this.#timers.get(job.jobId)?.stop();
    this.#timers.delete(job.jobId);
    if (!job.enabled) return;
    // A one-time job whose time has passed does not fire (croner finds no next run).
    const timer = cronFor(job.schedule, async () => {
      await this.run(job.jobId, 'schedule').done;
    });
    timer.resume();
    this.#timers.set(job.jobId, timer);
  }

  #withNext(job: CronJob): CronJob {
    const next = this.#timers.get(job.jobId)?.nextRun();
    const { nextRunAt: _nextRunAt, ...state } = job.state;
    return { ...job, state: next ? { ...state, nextRunAt: next.toISOString() } : state };
  }

  #save(): void {
    this.files.save([...this.#jobs.values()]);
  }
}
