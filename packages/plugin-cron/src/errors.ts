/** Codes @tool-search/plugin-cron raises beyond the kernel's own (AGENT_UNKNOWN, CRON_* in the kernel's set). */
import { defineErrors } from '@tool-search/kernel';

export const CronErrors = defineErrors('@tool-search/plugin-cron', {
  CRON_AGENT_NOT_ALLOWED:
    'A cron call named a job or an agentId of an agent the caller may not run as: only its own agent and those in its agents.list[].subagents.allowAgents (`details.agentId`, `details.requester`).',
});
