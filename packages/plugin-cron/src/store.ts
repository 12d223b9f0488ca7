/**
 * Jobs on disk: `<dir>/jobs.json` (written to a temporary file and renamed,
 * so a crash never leaves half a file) and one JSONL run log per job,
 * `<dir>/runs/<jobId>.jsonl`, trimmed to its newest lines.
 */
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import type { CronJob } from './jobs.js';

export interface RunRecord {
  readonly runId: string;
  readonly jobId: string;
  readonly trigger: 'schedule' | 'manual';
  readonly sessionKey: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly status: 'ok' | 'error';
  readonly reply?: string;
  readonly error?: string;
}

/** Run log lines kept per job. */
export const RUN_LOG_LINES = 500;

export class JobFiles {
  readonly file: string;
  readonly #runs: string;

  constructor(readonly dir: string) {
    this.file = join(dir, 'jobs.json');
    this.#runs = join(dir, 'runs');
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
      throw new ToolSearchError(ErrorCode.CONFIG_UNREADABLE, `cron jobs file ${this.file} is not valid: ${error instanceof Error ? error.message : String(error)}; fix or remove it`, { details: { file: this.file } });
    }
  }

  save(jobs: readonly CronJob[]): void {
    mkdirSync(this.dir, { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ version: 1, jobs }, null, 2)}\n`);
    renameSync(temp, this.file);
  }

  appendRun(run: RunRecord): void {
    mkdirSync(this.#runs, { recursive: true });
    const file = this.#runFile(run.jobId);
    appendFileSync(file, `${JSON.stringify(run)}\n`);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    if (lines.length > RUN_LOG_LINES) writeFileSync(file, `${lines.slice(-RUN_LOG_LINES).join('\n')}\n`);
  }

  runs(jobId: string, limit: number): RunRecord[] {
    try {
      const lines = readFileSync(this.#runFile(jobId), 'utf8').split('\n').filter(Boolean);
      return lines.slice(-limit).map((line) => JSON.parse(line) as RunRecord);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  removeRuns(jobId: string): void {
    rmSync(this.#runFile(jobId), { force: true });
  }

  #runFile(jobId: string): string {
    // Job ids are ours (UUIDs); anything else in the file could leave the folder.
    if (!/^[A-Za-z0-9_-]+$/.test(jobId)) throw new ToolSearchError(ErrorCode.CRON_JOB_UNKNOWN, `no cron job ${jobId}`, { details: { jobId } });
    return join(this.#runs, `${jobId}.jsonl`);
  }
}
