/**
 * Cron jobs as OpenClaw writes them: a schedule (`cron` expression with an
 * optional IANA time zone, `every` N milliseconds, or one time `at`), a
 * payload (`agentTurn` with a message), where it runs (`isolated`: a new
 * `cron` session per run; `main`: the session that added the job) and its
 * run state. Schedules are checked by croner, so a bad one fails at `add`.
 */
import { Cron } from 'croner';
import { ErrorCode, ToolSearchError, errorMessage } from '@tool-search/kernel';
import { CronErrors } from './errors.js';

export type Schedule =
  | { readonly kind: 'cron'; readonly expr: string; readonly tz?: string }
  | { readonly kind: 'every'; readonly everyMs: number }
  | { readonly kind: 'at'; readonly at: string };

export interface JobState {
  readonly nextRunAt?: string;
  readonly lastRunAt?: string;
  readonly lastStatus?: 'ok' | 'error';
  readonly lastError?: string;
  readonly runs: number;
}

export interface CronJob {
  readonly jobId: string;
  readonly name?: string;
  readonly enabled: boolean;
  readonly schedule: Schedule;
  readonly sessionTarget: 'isolated' | 'main';
  readonly payload: { readonly kind: 'agentTurn'; readonly message: string };
  readonly agentId?: string;
  /** One-time (`at`) jobs are removed after a successful run unless this is false. */
  readonly deleteAfterRun?: boolean;
  /** The session that added the job: `main` runs go there, isolated run sessions hang under it (visibility `tree`). */
  readonly createdBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly state: JobState;
}

/** The fields `add` takes and `update`'s `patch` may change. */
export const JOB_FIELDS = [
  'name',
  'enabled',
  'schedule',
  'sessionTarget',
  'payload',
  'agentId',
  'deleteAfterRun',
] as const;

/** Smallest `every` interval (croner fires on whole seconds). */
export const MIN_EVERY_MS = 1_000;

export function scheduleError(message: string, schedule: unknown, cause?: unknown): ToolSearchError {
  return new ToolSearchError(CronErrors.CRON_SCHEDULE_INVALID, message, {
    details: { schedule, rule: 'cron.schedule' },
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * A croner job for the schedule (paused until `start`), or a coded error naming what is wrong. An `every` schedule
 * runs on a grid from `anchorMs` (the job's creation, whole seconds), so every replica fires it at the same instants.
 */
export function cronFor(schedule: Schedule, fire: () => Promise<void> | void, anchorMs = Date.now()): Cron {
  try {
    if (schedule.kind === 'cron')
      return new Cron(
        schedule.expr,
        { paused: true, protect: true, ...(schedule.tz ? { timezone: schedule.tz } : {}) },
        fire,
      );
    if (schedule.kind === 'at') return new Cron(new Date(schedule.at), { paused: true, protect: true }, fire);
    // `interval` alone would fire at the next whole second; the first run is one interval past the anchor.
    const everySeconds = Math.round(schedule.everyMs / 1000);
    const step = everySeconds * 1000;
    const anchor = Math.ceil(anchorMs / 1000) * 1000;
    const startAt = anchor + Math.max(1, Math.floor((Date.now() - anchor) / step) + 1) * step;
    return new Cron(
      '* * * * * *',
      { paused: true, protect: true, interval: everySeconds, startAt: new Date(startAt) },
      fire,
    );
  } catch (error) {
    throw scheduleError(`invalid ${schedule.kind} schedule: ${errorMessage(error)}`, schedule, error);
  }
}

/** The job's anchor: its creation time (the grid of an `every` schedule). */
export function anchorOf(job: Pick<CronJob, 'createdAt'>): number {
  return Date.parse(job.createdAt);
}

/**
 * The scheduled instant a fire at `firedAt` stands for: the same on every replica although their timers fire a few
 * ms apart (the grid point of an `every` schedule, the whole second of a cron expression, the time of an `at`).
 */
export function slotOf(schedule: Schedule, anchorMs: number, firedAt: number): number {
  if (schedule.kind === 'at') return Date.parse(schedule.at);
  if (schedule.kind === 'cron') return Math.floor(firedAt / 1000) * 1000;
  const step = Math.round(schedule.everyMs / 1000) * 1000;
  const anchor = Math.ceil(anchorMs / 1000) * 1000;
  return anchor + Math.round((firedAt - anchor) / step) * step;
}

/** Checks a schedule's shape and that croner accepts it. */
export function checkSchedule(value: unknown): Schedule {
  const s = (value ?? {}) as Record<string, unknown>;
  let schedule: Schedule;
  if (s.kind === 'cron' && typeof s.expr === 'string' && (s.tz === undefined || typeof s.tz === 'string')) {
    schedule = { kind: 'cron', expr: s.expr, ...(typeof s.tz === 'string' ? { tz: s.tz } : {}) };
  } else if (
    s.kind === 'every' &&
    typeof s.everyMs === 'number' &&
    Number.isInteger(s.everyMs) &&
    s.everyMs >= MIN_EVERY_MS
  ) {
    schedule = { kind: 'every', everyMs: s.everyMs };
  } else if (s.kind === 'at' && typeof s.at === 'string' && !Number.isNaN(Date.parse(s.at))) {
    schedule = { kind: 'at', at: new Date(s.at).toISOString() };
  } else {
    throw scheduleError(
      `schedule must be { kind: "cron", expr, tz? }, { kind: "every", everyMs ≥ ${MIN_EVERY_MS} } or { kind: "at", at: ISO time }`,
      value,
    );
  }
  const probe = cronFor(schedule, () => undefined);
  const next = probe.nextRun();
  probe.stop();
  if (!next && schedule.kind !== 'at') throw scheduleError('the schedule never fires', value);
  return schedule;
}

/** A job from `add`'s `job` (or an old job with `update`'s `patch` applied), checked. */
export type JobBase = Omit<CronJob, 'schedule' | 'payload' | 'enabled' | 'sessionTarget' | 'updatedAt'> &
  Partial<CronJob>;

export function buildJob(input: Record<string, unknown>, base: JobBase): CronJob {
  const merged = { ...base, ...pick(input) } as Record<string, unknown>;
  const payload = (merged.payload ?? {}) as Record<string, unknown>;
  const message =
    typeof payload.message === 'string'
      ? payload.message
      : typeof merged.message === 'string'
        ? merged.message
        : undefined;
  if (!message) throw invalid("job.payload.message (the agent turn's message) is required");
  if (merged.sessionTarget !== undefined && merged.sessionTarget !== 'isolated' && merged.sessionTarget !== 'main')
    throw invalid('job.sessionTarget is "isolated" or "main"');
  if (merged.name !== undefined && typeof merged.name !== 'string') throw invalid('job.name is a string');
  if (merged.agentId !== undefined && typeof merged.agentId !== 'string') throw invalid('job.agentId is a string');
  return {
    ...base,
    ...(typeof merged.name === 'string' ? { name: merged.name } : {}),
    ...(typeof merged.agentId === 'string' ? { agentId: merged.agentId } : {}),
    ...(typeof merged.deleteAfterRun === 'boolean' ? { deleteAfterRun: merged.deleteAfterRun } : {}),
    enabled: merged.enabled !== false,
    schedule: checkSchedule(merged.schedule),
    sessionTarget: merged.sessionTarget === 'main' ? 'main' : 'isolated',
    payload: { kind: 'agentTurn', message },
    updatedAt: new Date().toISOString(),
  };
}

function pick(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).filter(([key]) => (JOB_FIELDS as readonly string[]).includes(key) || key === 'message'),
  );
}

export function invalid(message: string): ToolSearchError {
  return new ToolSearchError(ErrorCode.TOOL_ARGUMENTS_INVALID, message);
}
