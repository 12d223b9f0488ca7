/**
 * `cronPlugin`: OpenClaw's `cron` tool (`core:core:cron`; actions status,
 * list, add, update, remove, run, runs, wake) over a scheduler whose jobs
 * live in the gateway's state folder (or, for replicas, in the shared state
 * store) and whose runs are gateway turns. Composed only where a gateway runs
 * turns (it needs the session host).
 */
import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  errorMessage,
  silentLogger,
  ToolSearchError,
  type ExecuteContext,
  type Logger,
  type KernelPlugin,
  type ToolDefinition,
  type ToolResult,
} from '@tool-search/kernel';
import type { SessionHost } from '@tool-search/sessions';
import { CronErrors } from './errors.js';
import { checkGatewayTarget } from './gateway-target.js';
import { buildJob, invalid, type CronJob } from './jobs.js';
import { CronService } from './service.js';
import { StateJobs } from './shared.js';
import { JobFiles, type JobStore } from './store.js';
import { checkCronLimits, checkInterval, tooManyJobs, type CronLimits } from './limits.js';
import type { StateStore } from '@tool-search/state';

export const CRON_PLUGIN_NAME = '@tool-search/plugin-cron';
export const CRON_ACTIONS = ['status', 'list', 'add', 'update', 'remove', 'run', 'runs', 'wake'] as const;
export const DEFAULT_RUNS_LIMIT = 20;
/** A cron call's default `timeoutMs` (OpenClaw's gateway-backed tools default to 30 s too) and its bound. */
export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_TIMEOUT_MS = 600_000;

export interface CronPluginOptions {
  readonly host: SessionHost;
  /** The folder for `jobs.json` and `runs/<jobId>.jsonl`. */
  readonly dir: string;
  /**
   * `agents.list`; with none, runs name no agent. A job runs as its own agent: the caller's (the default), or one
   * listed in the caller's `subagents.allowAgents` (`"*"`: any); never a wider agent the caller may not spawn.
   */
  readonly agents?: readonly CronAgent[];
  /** Shared state: with a Redis store (or `jobsIn: "state"`), jobs, run logs and per-slot locks live there, so replicas share jobs and each slot runs once. */
  readonly state?: StateStore;
  /** Where jobs live: default `"state"` when `state` is a Redis store, else `"files"` (`dir`). */
  readonly jobsIn?: 'files' | 'state';
  /** With jobs in the store: how often every job is reloaded (a missed change message). Default 60,000 ms. */
  readonly resyncMs?: number;
  /** The shortest time a job may take between two fires, checked at add/update: default 60,000 ms (at least 1,000). */
  readonly minIntervalMs?: number;
  /** The most jobs one agent may keep: default 100 (1–1,000; all agents together keep at most 1,000). */
  readonly maxJobsPerAgent?: number;
}

/** The parts of an `agents.list[]` entry cron reads. */
export interface CronAgent {
  readonly id: string;
  readonly default?: boolean;
  readonly subagents?: { readonly allowAgents?: readonly string[] };
}

export function cronPlugin(options: CronPluginOptions): KernelPlugin {
  const limits = checkCronLimits(options);
  const agents = options.agents ?? [];
  const runAgent = (agentId: string | undefined) => (agents.length && agentId ? { agentId } : {});
  let logger: Logger = silentLogger;
  const service = new CronService({
    store: jobStore(options),
    host: options.host,
    runAgent,
    logger: () => logger,
    ...(options.state ? { replica: options.state.replicaId } : {}),
  });
  return {
    name: CRON_PLUGIN_NAME,
    apply({ hooks, logger: scoped }) {
      logger = scoped;
      service.start();
      // One count of the jobs being written for every run's copy of the tool.
      const writing = new Map<string, number>();
      hooks.listTools.tap((sink) =>
        sink.add([cronTool(service, options.host, agents, { ...limits, writing }, () => logger)]),
      );
      hooks.shutdown.tapPromise(() => service.stop());
    },
  };
}

function jobStore(options: CronPluginOptions): JobStore {
  const where = options.jobsIn ?? (options.state?.kind === 'redis' ? 'state' : 'files');
  if (where === 'files' || !options.state) return new JobFiles(options.dir);
  return new StateJobs(options.state, options.resyncMs);
}

function cronTool(
  service: CronService,
  host: SessionHost,
  agents: readonly CronAgent[],
  limits: CronLimits & { readonly writing: Map<string, number> },
  logger: () => Logger,
): ToolDefinition {
  const fallback = agents.find((agent) => agent.default)?.id ?? agents[0]?.id;
  /** Jobs being written per agent: counted with the stored ones, so concurrent adds cannot pass the count together. */
  const { writing } = limits;
  const agentKey = (job: CronJob) => (job.agentId ?? fallback ?? '').toLowerCase();
  /** Stores `job`, first taking its agent's place synchronously (no await between the count and the reservation). */
  const putCounted = async (job: CronJob, before?: CronJob): Promise<CronJob> => {
    const key = agentKey(job);
    if (!before || agentKey(before) !== key) {
      const count = service.list().filter((other) => agentKey(other) === key).length + (writing.get(key) ?? 0);
      if (count >= limits.maxJobsPerAgent) throw tooManyJobs(job.agentId ?? fallback, count, limits.maxJobsPerAgent);
    }
    writing.set(key, (writing.get(key) ?? 0) + 1);
    try {
      return await service.put(job);
    } finally {
      writing.set(key, writing.get(key)! - 1);
    }
  };
  return {
    name: 'cron',
    source: 'core',
    owner: 'core',
    description:
      'Schedule agent turns: status, list, add { job }, update { jobId, patch }, remove { jobId }, run { jobId } (now), runs { jobId } (history), wake { text } (an agent turn now); id works as jobId. ' +
      'A job: { name?, schedule: { kind: "cron", expr, tz? } | { kind: "every", everyMs } | { kind: "at", at }, payload: { kind: "agentTurn", message }, sessionTarget?: "isolated" | "main", agentId?, enabled? }.',
    inputSchema: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: [...CRON_ACTIONS] },
        job: { type: 'object', description: 'add: the job.' },
        jobId: { type: 'string', minLength: 1 },
        id: { type: 'string', minLength: 1, description: 'The same as jobId (OpenClaw accepts both).' },
        patch: { type: 'object', description: 'update: the fields to change.' },
        includeDisabled: { type: 'boolean', description: 'list: also disabled jobs.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 500,
          description: `runs: newest runs to return (default ${DEFAULT_RUNS_LIMIT}).`,
        },
        text: { type: 'string', minLength: 1, description: 'wake: the message for the agent turn.' },
        gatewayUrl: {
          type: 'string',
          pattern: '^(wss?|https?)://',
          maxLength: 2048,
          description:
            'The gateway to act on (default: the one serving this call, e.g. ws://127.0.0.1:18789); only that one can be named. An explicit URL needs an explicit gatewayToken.',
        },
        gatewayToken: {
          type: 'string',
          minLength: 1,
          maxLength: 4096,
          description: 'The token for gatewayUrl (required with it; never taken from the config or the environment).',
        },
        timeoutMs: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_TIMEOUT_MS,
          description: `Give up after this long (default ${DEFAULT_TIMEOUT_MS}).`,
        },
      },
      required: ['action'],
      additionalProperties: false,
    },
    async execute(given, ctx) {
      checkGatewayTarget(given, ctx);
      const timeoutMs = typeof given.timeoutMs === 'number' ? given.timeoutMs : DEFAULT_TIMEOUT_MS;
      return withTimeout(run(given, ctx), timeoutMs);
    },
  };

  async function run(given: Record<string, unknown>, ctx: ExecuteContext): Promise<ToolResult> {
    const { gatewayUrl: _url, gatewayToken: _token, timeoutMs: _timeout, ...rest } = given;
    {
      const args = withJobId(rest);
      await service.ready();
      if (typeof args.jobId === 'string') await service.known(args.jobId);
      const scope = agentScope(agents, ctx);
      const jobId = () => {
        if (typeof args.jobId !== 'string') throw invalid(`cron ${String(args.action)} needs jobId`);
        scope.check(service.get(args.jobId).agentId, args.jobId);
        return args.jobId;
      };
      switch (args.action) {
        case 'status':
          return json({
            running: true,
            ...service.store.where,
            jobs: service.list().length,
            enabled: service.list().filter((j) => j.enabled).length,
            nextWakeAt: service.nextWakeAt() ?? null,
          });
        case 'list':
          return json({
            jobs: service
              .list()
              .filter((job) => (job.enabled || args.includeDisabled === true) && scope.reaches(job.agentId)),
          });
        case 'add': {
          if (typeof args.job !== 'object' || args.job === null) throw invalid('cron add needs job');
          const now = new Date().toISOString();
          const fields = args.job as Record<string, unknown>;
          // A job without agentId runs as the caller's agent, written down, never as whatever the default is then.
          const own = fields.agentId === undefined && scope.agentId !== undefined ? { agentId: scope.agentId } : {};
          const job = buildJob(
            { ...fields, ...own },
            { jobId: randomUUID(), createdBy: ctx.run.sessionId, createdAt: now, state: { runs: 0 } },
          );
          checkAgent(agents, job.agentId);
          scope.check(job.agentId);
          checkInterval(job.schedule, limits);
          return json({ job: await putCounted(job) });
        }
        case 'update': {
          if (typeof args.patch !== 'object' || args.patch === null) throw invalid('cron update needs patch');
          const before = service.get(jobId());
          const patch = args.patch as Record<string, unknown>;
          const job = buildJob(patch, before);
          checkAgent(agents, job.agentId);
          scope.check(job.agentId, job.jobId);
          // A stored job keeps its schedule as it is; a new one must respect minIntervalMs.
          if (patch.schedule !== undefined) checkInterval(job.schedule, limits);
          return json({ job: await putCounted(job, before) });
        }
        case 'remove':
          await service.remove(jobId());
          return json({ ok: true, removed: args.jobId });
        case 'run': {
          const { runId, done } = service.run(jobId(), 'manual');
          // A turn's own failure is in the run record; what rejects here (the session store) would otherwise go unseen.
          done.catch((error: unknown) =>
            logger().warn(`manual cron run ${runId} failed before it was recorded: ${errorMessage(error)}`, {
              jobId: args.jobId,
              cause: error,
            }),
          );
          return json({ ok: true, enqueued: true, runId });
        }
        case 'runs':
          return json({
            jobId: args.jobId,
            runs: await service.store.runs(jobId(), typeof args.limit === 'number' ? args.limit : DEFAULT_RUNS_LIMIT),
          });
        case 'wake':
          return json(await wake(host, agents, args, ctx));
        default:
          throw invalid(`unknown cron action ${String(args.action)}`);
      }
    }
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ToolSearchError(CronErrors.CRON_TIMEOUT, `the cron call took longer than timeoutMs ${ms}`, {
            details: { timeoutMs: ms },
          }),
        ),
      ms,
    );
  });
  return Promise.race([work, timedOut]).finally(() => clearTimeout(timer));
}

/** `id` is accepted as `jobId` (as OpenClaw's cron tool does); both, naming different jobs, is an error. */
function withJobId(args: Record<string, unknown>): Record<string, unknown> {
  if (args.id === undefined) return args;
  if (args.jobId !== undefined && args.jobId !== args.id)
    throw invalid('cron: jobId and id name different jobs; give one of them');
  const { id, ...rest } = args;
  return { ...rest, jobId: id };
}

/** `wake`: an agent turn now, in a new `cron` session under the caller. */
async function wake(
  host: SessionHost,
  agents: readonly CronAgent[],
  args: Record<string, unknown>,
  ctx: ExecuteContext,
): Promise<Record<string, unknown>> {
  if (typeof args.text !== 'string') throw invalid('cron wake needs text');
  const agentId = ctx.run.request.agentId;
  const sessionId = `wake-${randomUUID()}`;
  const record = await host.store.upsert(sessionId, {
    kind: 'cron',
    parentId: ctx.run.sessionId,
    label: 'wake',
    ...(agentId ? { agentId } : {}),
  });
  host.turn(sessionId, args.text, agents.length && agentId ? { agentId } : {}).catch(() => undefined); // the turn's failure is on its session (status, lastError)
  return { ok: true, enqueued: true, sessionKey: record.key };
}

/**
 * Which agents the caller may run cron jobs as: its own and those in its `subagents.allowAgents` (as
 * `sessions_spawn`). A job without `agentId` (written before jobs recorded it) counts as the default agent's.
 * Without `agents.list` there is one agent and no scope.
 */
function agentScope(agents: readonly CronAgent[], ctx: ExecuteContext) {
  const fallback = agents.find((agent) => agent.default)?.id ?? agents[0]?.id;
  const agentId = agents.length ? (ctx.run.request.agentId ?? fallback) : undefined;
  const own = agents.find((agent) => agent.id.toLowerCase() === agentId?.toLowerCase());
  const allow = own?.subagents?.allowAgents ?? [];
  const reaches = (target: string | undefined): boolean => {
    if (agentId === undefined) return true;
    const wanted = (target ?? fallback ?? '').toLowerCase();
    return wanted === agentId.toLowerCase() || allow.includes('*') || allow.some((id) => id.toLowerCase() === wanted);
  };
  const check = (target: string | undefined, jobId?: string): void => {
    if (reaches(target)) return;
    throw new ToolSearchError(
      CronErrors.CRON_AGENT_NOT_ALLOWED,
      `agent "${agentId}" may not ${jobId ? `touch cron job ${jobId}, which runs` : 'schedule a job that runs'} as agent "${target ?? fallback}": it is not in its agents.list[].subagents.allowAgents`,
      {
        details: {
          agentId: target ?? fallback,
          requester: agentId,
          ...(jobId ? { jobId } : {}),
          rule: 'agents.list[].subagents.allowAgents',
        },
      },
    );
  };
  return { agentId, reaches, check };
}

function checkAgent(agents: readonly { id: string }[], agentId: string | undefined): void {
  if (agentId === undefined || agents.some((agent) => agent.id === agentId)) return;
  throw new ToolSearchError(ErrorCode.AGENT_UNKNOWN, `agents.list has no agent "${agentId}"`, {
    details: { agentId, known: agents.map((a) => a.id) },
  });
}

function json(value: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}
