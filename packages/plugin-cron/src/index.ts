export { slotOf } from './jobs.js';
export {
  cronPlugin,
  CRON_PLUGIN_NAME,
  CRON_ACTIONS,
  DEFAULT_RUNS_LIMIT,
  type CronAgent,
  type CronPluginOptions,
} from './plugin.js';
export { CronErrors } from './errors.js';
export { checkSchedule, MIN_EVERY_MS, type CronJob, type Schedule, type JobState } from './jobs.js';
export { RUN_LOG_LINES, type RunRecord } from './store.js';
export {
  checkCronLimits,
  cronOptionsSchema,
  DEFAULT_MAX_JOBS_PER_AGENT,
  DEFAULT_MIN_INTERVAL_MS,
  type CronLimits,
} from './limits.js';
