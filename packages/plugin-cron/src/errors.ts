/** The codes `@tool-search/plugin-cron` raises (an unknown agent is the kernel's `AGENT_UNKNOWN`). */
import { defineErrors } from '@tool-search/kernel/errors';

export const CronErrors = defineErrors('@tool-search/plugin-cron', {
  CRON_AGENT_NOT_ALLOWED:
    'A cron call named a job or an agentId of an agent the caller may not run as: only its own agent and those in its agents.list[].subagents.allowAgents (`details.agentId`, `details.requester`).',
  CRON_GATEWAY_TOKEN_REQUIRED:
    'A cron call gave gatewayUrl without gatewayToken: an explicit gateway URL needs an explicit token (credentials are never borrowed from the config or the environment for it).',
  CRON_GATEWAY_REMOTE_UNSUPPORTED:
    "A cron call's gatewayUrl names a gateway other than the one serving the call (which it may name, e.g. the documented default ws://127.0.0.1:18789 when that is this gateway): Tool Search has no RPC to reach another gateway's cron.",
  CRON_TIMEOUT: 'A cron call took longer than its timeoutMs.',
  CRON_JOB_UNKNOWN: '`cron`: no job with that id.',
  CRON_SCHEDULE_INVALID: "`cron`: a job's schedule (cron expression, time zone, interval or time) is invalid.",
  CRON_INTERVAL_TOO_SHORT:
    '`cron` add/update: the schedule fires more often than `minIntervalMs` allows (`details.intervalMs`, `details.minIntervalMs`).',
  CRON_TOO_MANY_JOBS:
    '`cron` add/update: the agent already has `maxJobsPerAgent` jobs (`details.agentId`, `details.limit`); remove one first.',
});
