/**
 * The cron plugin's own limits: how often a job may fire (`minIntervalMs`, default 60 s: OpenClaw's schedules are
 * minute-grained, and a job a second is a turn a second) and how many jobs one agent may keep (`maxJobsPerAgent`,
 * default 100). Both are checked at `add` and `update`, with coded errors; jobs already stored are left as they are.
 */
import { ConfigError, ToolSearchError } from '@tool-search/kernel';
import { CronErrors } from './errors.js';
import { cronFor, type Schedule } from './jobs.js';

export const DEFAULT_MIN_INTERVAL_MS = 60_000;
export const DEFAULT_MAX_JOBS_PER_AGENT = 100;
/** Fires of a cron expression looked at for its shortest gap. */
const FIRES_PROBED = 100;

export interface CronLimits {
  readonly minIntervalMs: number;
  readonly maxJobsPerAgent: number;
}

/** The JSON Schema of the limit options (the rest of `CronPluginOptions` are objects the composer passes). */
export const cronOptionsSchema = {
  type: 'object',
  properties: {
    minIntervalMs: { type: 'integer', minimum: 1000, default: DEFAULT_MIN_INTERVAL_MS },
    maxJobsPerAgent: { type: 'integer', minimum: 1, maximum: 1000, default: DEFAULT_MAX_JOBS_PER_AGENT },
  },
} as const;

export function checkCronLimits(options: { minIntervalMs?: unknown; maxJobsPerAgent?: unknown }): CronLimits {
  return {
    minIntervalMs: integerOption('minIntervalMs', options.minIntervalMs, DEFAULT_MIN_INTERVAL_MS, 1000, Infinity),
    maxJobsPerAgent: integerOption('maxJobsPerAgent', options.maxJobsPerAgent, DEFAULT_MAX_JOBS_PER_AGENT, 1, 1000),
  };
}

function integerOption(key: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (Number.isInteger(value) && (value as number) >= min && (value as number) <= max) return value as number;
  throw new ConfigError(
    `/cron/${key}`,
    'range',
    `cron.${key} must be an integer from ${min}${max < Infinity ? ` to ${max}` : ''}`,
    {
      details: { value, minimum: min, ...(max < Infinity ? { maximum: max } : {}) },
    },
  );
}

/** The shortest time between two fires of a schedule (`undefined` for a one-time `at`). */
export function shortestInterval(schedule: Schedule): number | undefined {
  if (schedule.kind === 'at') return undefined;
  if (schedule.kind === 'every') return schedule.everyMs;
  const probe = cronFor(schedule, () => undefined);
  try {
    const fires = probe.nextRuns(FIRES_PROBED).map((date) => date.getTime());
    let shortest = Infinity;
    for (let i = 1; i < fires.length; i++) shortest = Math.min(shortest, fires[i]! - fires[i - 1]!);
    return Number.isFinite(shortest) ? shortest : undefined;
  } finally {
    probe.stop();
  }
}

export function checkInterval(schedule: Schedule, limits: CronLimits): void {
  const intervalMs = shortestInterval(schedule);
  if (intervalMs === undefined || intervalMs >= limits.minIntervalMs) return;
  throw new ToolSearchError(
    CronErrors.CRON_INTERVAL_TOO_SHORT,
    `the schedule fires every ${intervalMs / 1000} s; jobs may fire at most once every ${limits.minIntervalMs / 1000} s (minIntervalMs)`,
    { details: { schedule, intervalMs, minIntervalMs: limits.minIntervalMs, rule: 'cron.minIntervalMs' } },
  );
}

export function tooManyJobs(agentId: string | undefined, count: number, limit: number): ToolSearchError {
  return new ToolSearchError(
    CronErrors.CRON_TOO_MANY_JOBS,
    `agent ${agentId ?? '(default)'} has ${count} cron jobs; at most ${limit} per agent (maxJobsPerAgent): remove one first`,
    { details: { agentId: agentId ?? null, count, limit, rule: 'cron.maxJobsPerAgent' } },
  );
}
