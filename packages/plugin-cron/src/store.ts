/**
 * Where jobs and run logs live. `JobStore` is what the scheduler needs of
 * them; `JobFiles` is the gateway's own folder: `<dir>/jobs.json` (written to
 * a temporary file and renamed, so a crash never leaves half a file) and one
 * JSONL run log per job, `<dir>/runs/<jobId>.jsonl`, trimmed to its newest
 * lines. One process owns the folder, so every scheduled slot is its own.
 */
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode, ToolSearchError, errorMessage } from '@tool-search/kernel';
import type { CronJob } from './jobs.js';
import { CronErrors } from './errors.js';

export interface RunRecord {
  readonly runId: string;
  readonly jobId: string;
  readonly trigger: 'schedule' | 'manual';
  /** The slot a scheduled run took (its lock key): one run per slot across replicas. */
  readonly scheduledAt?: string;
  /** The replica that ran it (with a shared store). */
  readonly replica?: string;
  readonly sessionKey: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly status: 'ok' | 'error';
  readonly reply?: string;
  readonly error?: string;
}

/** Run log lines kept per job. */
export const RUN_LOG_LINES = 500;

export interface JobStore {
  /** What `cron status` reports as where jobs live. */
  readonly where: Record<string, string>;
  /** Every job (files: synchronously, so a broken `jobs.json` stops the gateway at start). */
  load(): CronJob[] | Promise<CronJob[]>;
  /** The job as stored now (another replica may have changed it), if it still exists. */
  fetch(jobId: string): Promise<CronJob | undefined>;
  /** Stores one job; `all` is the whole set after the change (for stores that write them together). */
  put(job: CronJob, all: readonly CronJob[]): Promise<void>;
  remove(jobId: string, all: readonly CronJob[]): Promise<void>;
  appendRun(run: RunRecord): Promise<void>;
  runs(jobId: string, limit: number): Promise<RunRecord[]>;
  /** Whether this process runs the job's slot at `slotMs` (exactly one replica gets true). */
  claim(jobId: string, slotMs: number): Promise<boolean>;
  /** How often the scheduler reloads every job (a store shared with replicas: catches a change message it missed). */
  readonly resyncMs?: number;
  /** Calls `changed(jobId)` when another replica changed or removed a job; resolves to the unsubscribe function. */
  watch(changed: (jobId: string) => void): Promise<() => Promise<void>>;
}

export class JobFiles implements JobStore {
  readonly file: string;
  readonly #runs: string;

  constructor(readonly dir: string) {
    this.file = join(dir, 'jobs.json');
    this.#runs = join(dir, 'runs');
  }

  get where(): Record<string, string> {
    return { dir: this.dir };
  }

  load(): CronJob[] {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as { jobs?: unknown };
      if (!Array.isArray(parsed.jobs)) throw new Error('no "jobs" array');
      return parsed.jobs as CronJob[];
    } catch (error) {
      throw new ToolSearchError(
        ErrorCode.CONFIG_UNREADABLE,
        `cron jobs file ${this.file} is not valid: ${errorMessage(error)}; fix or remove it`,
        { details: { file: this.file }, cause: error },
      );
    }
  }

  async fetch(jobId: string): Promise<CronJob | undefined> {
    return this.load().find((job) => job.jobId === jobId);
  }

  async put(_job: CronJob, all: readonly CronJob[]): Promise<void> {
    this.#save(all);
  }

  async remove(jobId: string, all: readonly CronJob[]): Promise<void> {
    this.#save(all);
    rmSync(this.#runFile(jobId), { force: true });
  }

  async appendRun(run: RunRecord): Promise<void> {
    mkdirSync(this.#runs, { recursive: true });
    const file = this.#runFile(run.jobId);
    appendFileSync(file, `${JSON.stringify(run)}\n`);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    if (lines.length > RUN_LOG_LINES) writeFileSync(file, `${lines.slice(-RUN_LOG_LINES).join('\n')}\n`);
  }

  async runs(jobId: string, limit: number): Promise<RunRecord[]> {
    try {
      const lines = readFileSync(this.#runFile(jobId), 'utf8').split('\n').filter(Boolean);
      return lines.slice(-limit).map((line) => JSON.parse(line) as RunRecord);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async claim(): Promise<boolean> {
    return true;
  }

  async watch(): Promise<() => Promise<void>> {
    return async () => undefined;
  }

  #save(jobs: readonly CronJob[]): void {
    mkdirSync(this.dir, { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ version: 1, jobs }, null, 2)}\n`);
    renameSync(temp, this.file);
  }

  #runFile(jobId: string): string {
    // Job ids are ours (UUIDs); anything else in the file could leave the folder.
    if (!/^[A-Za-z0-9_-]+$/.test(jobId))
      throw new ToolSearchError(CronErrors.CRON_JOB_UNKNOWN, `no cron job ${jobId}`, { details: { jobId } });
    return join(this.#runs, `${jobId}.jsonl`);
  }
}
