/**
 * Jobs in the shared state store, for replicas behind a load balancer: one
 * record per job (`cron:job:<id>`) under a bounded index (`cron:jobs`), run
 * logs as bounded lists (`cron:runs:<id>`, so `cron runs` on any replica shows
 * every replica's runs), a `cron:changed` message so the other replicas
 * reload a job at once, and one lock per scheduled slot
 * (`cron:lock:<id>:<slot ms>`, set only if absent) so exactly one replica runs
 * it. Every key has a TTL: job records and logs live `JOB_TTL_MS` past their
 * last write or load, locks `LOCK_TTL_MS`.
 */
import type { StateStore } from '@tool-search/state';
import type { CronJob } from './jobs.js';
import { RUN_LOG_LINES, type JobStore, type RunRecord } from './store.js';

/** Jobs (and their run logs) expire this long after the last write or replica start: past a yearly schedule. */
export const JOB_TTL_MS = 400 * 24 * 60 * 60 * 1000;
/** A slot's lock outlives any replica's late timer for that slot by far. */
export const LOCK_TTL_MS = 10 * 60 * 1000;
/** Jobs the index holds (the service refuses `add` past it). */
export const MAX_JOBS = 1000;

const INDEX = 'cron:jobs';
const CHANNEL = 'cron:changed';
const jobKey = (jobId: string) => `cron:job:${jobId}`;
const runsKey = (jobId: string) => `cron:runs:${jobId}`;

export class StateJobs implements JobStore {
  constructor(readonly state: StateStore) {}

  get where(): Record<string, string> {
    return { store: this.state.kind, replica: this.state.replicaId };
  }

  async load(): Promise<CronJob[]> {
    const jobs: CronJob[] = [];
    for (const jobId of await this.state.members(INDEX)) {
      const job = await this.fetch(jobId);
      if (!job) {
        await this.state.unindex(INDEX, jobId); // expired
        continue;
      }
      jobs.push(job);
      await this.state.touch(jobKey(jobId), JOB_TTL_MS);
      await this.state.touch(runsKey(jobId), JOB_TTL_MS);
    }
    await this.state.touch(INDEX, JOB_TTL_MS);
    return jobs.reverse(); // oldest first, as jobs.json keeps them
  }

  async fetch(jobId: string): Promise<CronJob | undefined> {
    const text = await this.state.get(jobKey(jobId));
    return text === undefined ? undefined : (JSON.parse(text) as CronJob);
  }

  async put(job: CronJob): Promise<void> {
    await this.state.set(jobKey(job.jobId), JSON.stringify(job), { ttlMs: JOB_TTL_MS });
    await this.state.index(INDEX, job.jobId, Date.parse(job.createdAt), { max: MAX_JOBS, ttlMs: JOB_TTL_MS });
    await this.#changed(job.jobId);
  }

  async remove(jobId: string): Promise<void> {
    await this.state.delete(jobKey(jobId));
    await this.state.unindex(INDEX, jobId);
    await this.state.delete(runsKey(jobId));
    await this.#changed(jobId);
  }

  async appendRun(run: RunRecord): Promise<void> {
    await this.state.append(runsKey(run.jobId), [JSON.stringify(run)], { max: RUN_LOG_LINES, ttlMs: JOB_TTL_MS });
  }

  async runs(jobId: string, limit: number): Promise<RunRecord[]> {
    return (await this.state.range(runsKey(jobId), limit)).map((line) => JSON.parse(line) as RunRecord);
  }

  claim(jobId: string, slotMs: number): Promise<boolean> {
    return this.state.set(`cron:lock:${jobId}:${slotMs}`, this.state.replicaId, { ttlMs: LOCK_TTL_MS, ifAbsent: true });
  }

  watch(changed: (jobId: string) => void): Promise<() => Promise<void>> {
    return this.state.subscribe(CHANNEL, (message) => {
      try {
        const { replica, jobId } = JSON.parse(message) as { replica?: unknown; jobId?: unknown };
        if (replica !== this.state.replicaId && typeof jobId === 'string') changed(jobId);
      } catch {
        // not ours
      }
    });
  }

  #changed(jobId: string): Promise<void> {
    return this.state.publish(CHANNEL, JSON.stringify({ replica: this.state.replicaId, jobId }));
  }
}
