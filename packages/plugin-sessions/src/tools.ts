/**
 * The session tools (`core:core:<name>`): list, history, send, spawn,
 * status and agents, over the host's store, with visibility and
 * allowAgents checked on every call.
 */
import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  ToolSearchError,
  type ExecuteContext,
  type JsonSchema,
  type ToolDefinition,
  type ToolResult,
} from '@tool-search/kernel';
import type { SessionHost, SessionRecord, TranscriptEntry } from '@tool-search/sessions';
import {
  allowedAgents,
  callerOf,
  checkSpawnAgent,
  checkSpawnLimits,
  resolveTarget,
  visible,
  type AgentEntry,
  type SpawnLimits,
  type Visibility,
} from './access.js';
import { SessionsErrors } from '@tool-search/sessions';
import { SessionToolsErrors } from './errors.js';

export interface SessionToolsContext {
  readonly host: SessionHost;
  readonly visibility: Visibility;
  readonly agents: readonly AgentEntry[];
  readonly limits: SpawnLimits;
  readonly now?: () => number;
  /** More fields for `session_status` (the preset adds the session's telemetry counters); a failure leaves them out. */
  readonly statusFields?: (record: SessionRecord) => Promise<Record<string, unknown>>;
}

export const DEFAULT_LIST_LIMIT = 50;
export const DEFAULT_HISTORY_LIMIT = 50;
export const DEFAULT_SEND_TIMEOUT_SECONDS = 30;
const target: Record<string, JsonSchema> = {
  sessionKey: { type: 'string', minLength: 1, description: 'Session key (agent:<agentId>:<sessionId>), as sessions_list shows it.' },
  sessionId: { type: 'string', minLength: 1, description: 'Session id (instead of sessionKey).' },
};

export function sessionTools(c: SessionToolsContext): ToolDefinition[] {
  const now = c.now ?? Date.now;
  const { store } = c.host;
  return [
    tool('sessions_list', 'List the gateway sessions you can see (yours and the ones you spawned, by default): key, kind, agent, model, status, message counts, timestamps.', {
      kinds: { type: 'array', items: { type: 'string', enum: ['main', 'spawn', 'cron'] }, description: 'Only these kinds.' },
      limit: { type: 'integer', minimum: 1, maximum: 200, description: `Sessions to return (default ${DEFAULT_LIST_LIMIT}), most recent first.` },
      activeMinutes: { type: 'integer', minimum: 1, description: 'Only sessions updated within this many minutes.' },
      messageLimit: { type: 'integer', minimum: 0, maximum: 20, description: 'Also return the last N messages of each session (default 0).' },
    }, [], async (args, ctx) => {
      const caller = callerOf(ctx, c.agents);
      const kinds = Array.isArray(args.kinds) ? (args.kinds as string[]) : undefined;
      const since = typeof args.activeMinutes === 'number' ? now() - args.activeMinutes * 60_000 : undefined;
      const limit = typeof args.limit === 'number' ? args.limit : DEFAULT_LIST_LIMIT;
      const messageLimit = typeof args.messageLimit === 'number' ? args.messageLimit : 0;
      const sessions: Record<string, unknown>[] = [];
      for (const record of await store.list()) {
        if (sessions.length >= limit) break;
        if (kinds && !kinds.includes(record.kind)) continue;
        if (since !== undefined && record.updatedAt < since) continue;
        if (!(await visible(store, c.visibility, caller, record))) continue;
        const messages = messageLimit ? chat(await store.transcript(record.sessionId), false).slice(-messageLimit) : undefined;
        sessions.push({ ...(await summary(record)), ...(messages ? { messages } : {}) });
      }
      return json({ visibility: c.visibility, count: sessions.length, sessions });
    }),
    tool('sessions_history', 'Read the transcript of one session you can see (default: your own). Tool lines are left out unless includeTools is true.', {
      ...target,
      limit: { type: 'integer', minimum: 1, maximum: 200, description: `Newest messages to return (default ${DEFAULT_HISTORY_LIMIT}).` },
      includeTools: { type: 'boolean', description: 'Include tool calls and their status (default false).' },
    }, [], async (args, ctx) => {
      const record = await resolveTarget(store, c.visibility, callerOf(ctx, c.agents), args);
      const limit = typeof args.limit === 'number' ? args.limit : DEFAULT_HISTORY_LIMIT;
      const all = chat(await store.transcript(record.sessionId), args.includeTools === true);
      return json({ sessionKey: record.key, total: record.messageCount, truncated: all.length > limit, messages: all.slice(-limit) });
    }),
    tool('sessions_send', 'Send a message to another session you can see and, unless timeoutSeconds is 0 (fire and forget), wait for its reply.', {
      ...target,
      message: { type: 'string', minLength: 1, description: 'The message, as a user turn in that session.' },
      timeoutSeconds: { type: 'integer', minimum: 0, maximum: 3600, description: `Seconds to wait for the reply (default ${DEFAULT_SEND_TIMEOUT_SECONDS}; 0 = do not wait).` },
    }, ['message'], async (args, ctx) => {
      const caller = callerOf(ctx, c.agents);
      if (args.sessionKey === undefined && args.sessionId === undefined) throw new ToolSearchError(ErrorCode.TOOL_ARGUMENTS_INVALID, 'sessions_send needs sessionKey or sessionId');
      const record = await resolveTarget(store, c.visibility, caller, args);
      if (record.sessionId === caller.sessionId) {
        throw new ToolSearchError(SessionToolsErrors.SESSION_SEND_SELF, 'sessions_send cannot target your own session: your turn is the one running there', { details: { sessionKey: record.key } });
      }
      const timeout = typeof args.timeoutSeconds === 'number' ? args.timeoutSeconds : DEFAULT_SEND_TIMEOUT_SECONDS;
      const turn = c.host.turn(record.sessionId, String(args.message), { ...runAgent(record.agentId), ...(record.model ? { model: record.model } : {}) });
      if (timeout === 0) {
        turn.catch(() => undefined); // the failure is on the session (status, lastError)
        return json({ status: 'accepted', sessionKey: record.key });
      }
      return json({ sessionKey: record.key, ...(await waitFor(turn, timeout * 1000, ctx.signal)) });
    }),
    tool('sessions_spawn', 'Start a sub-agent in a new isolated session on a task, in the background; returns at once with status "accepted" and the child session key (read its result with sessions_history).', {
      task: { type: 'string', minLength: 1, description: 'What the sub-agent should do (its first user message).' },
      label: { type: 'string', maxLength: 200, description: 'A short name for the session.' },
      agentId: { type: 'string', minLength: 1, description: 'Agent to run (default: yours); agents_list shows the allowed ones.' },
      model: { type: 'string', minLength: 1, description: 'Model for the sub-agent (default: the gateway\'s).' },
      runTimeoutSeconds: { type: 'integer', minimum: 0, maximum: 86400, description: 'Abort the run after this many seconds (0 = no limit, the default).' },
      mode: { type: 'string', enum: ['run', 'session'], description: '"run" (default): one task; "session": kept for follow-ups with sessions_send.' },
    }, ['task'], async (args, ctx) => {
      const caller = callerOf(ctx, c.agents);
      const agentId = typeof args.agentId === 'string' ? args.agentId : caller.agentId;
      checkSpawnAgent(c.agents, caller, agentId);
      if (!c.host.bound) throw unavailable();
      await checkSpawnLimits(store, c.limits, caller);
      const mode = args.mode === 'session' ? 'session' : 'run';
      const model = typeof args.model === 'string' ? args.model : undefined;
      const sessionId = `spawn-${randomUUID()}`;
      const child = await store.upsert(sessionId, {
        agentId,
        kind: 'spawn',
        mode,
        parentId: caller.sessionId,
        ...(typeof args.label === 'string' ? { label: args.label } : {}),
        ...(model ? { model } : {}),
      });
      const seconds = typeof args.runTimeoutSeconds === 'number' ? args.runTimeoutSeconds : 0;
      c.host
          .turn(sessionId, String(args.task), { ...runAgent(agentId), ...(model ? { model } : {}), ...(seconds ? { signal: AbortSignal.timeout(seconds * 1000) } : {}) })
        .catch(() => undefined); // recorded on the child session (status failed, lastError)
      return json({ status: 'accepted', childSessionKey: child.key, sessionId, agentId, mode });
    }),
    tool('session_status', 'Show the status card of a session you can see (default: your own): agent, model, status, turns, messages, tokens, timestamps.', target, [], async (args, ctx) => {
      const record = await resolveTarget(store, c.visibility, callerOf(ctx, c.agents), args);
      const extra = c.statusFields ? await c.statusFields(record).catch(() => ({})) : {};
      return json({ ...(await summary(record)), ...extra });
    }),
    tool('agents_list', 'List the agent ids you may use with sessions_spawn (agents.list[].subagents.allowAgents).', {}, [], (_args, ctx) => {
      const caller = callerOf(ctx, c.agents);
      const agents = allowedAgents(c.agents, caller.agentId).map((id) => {
        const entry = c.agents.find((agent) => agent.id === id);
        return { id, ...(entry?.name ? { name: entry.name } : {}), ...(entry?.default ? { default: true } : {}), self: id === caller.agentId };
      });
      return json({ requester: caller.agentId, agents });
    }),
  ];

  /** The kernel refuses agent ids agents.list does not have; with no list, runs name no agent. */
  function runAgent(agentId: string): { agentId?: string } {
    return c.agents.length ? { agentId } : {};
  }

  async function summary(record: SessionRecord): Promise<Record<string, unknown>> {
    const parent = record.parentId ? await store.get(record.parentId) : undefined;
    const { key, parentId: _parentId, ...rest } = record;
    return { sessionKey: key, ...rest, ...(parent ? { parentKey: parent.key } : {}) };
  }
}

function chat(entries: readonly TranscriptEntry[], includeTools: boolean): TranscriptEntry[] {
  return includeTools ? [...entries] : entries.filter((entry) => entry.role !== 'tool');
}

async function waitFor(turn: Promise<{ content: string | null; model: string }>, ms: number, signal: AbortSignal): Promise<Record<string, unknown>> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  const aborted = new Promise<'timeout'>((resolve) => signal.addEventListener('abort', () => resolve('timeout'), { once: true }));
  try {
    const reply = await Promise.race([turn, timedOut, aborted]);
    if (reply === 'timeout') {
      turn.catch(() => undefined);
      return { status: 'timeout', note: 'the turn goes on; read its reply later with sessions_history' };
    }
    return { status: 'ok', reply: reply.content, model: reply.model };
  } catch (error) {
    return { status: 'error', error: error instanceof Error ? error.message : String(error), ...(ToolSearchError.isInstance(error) ? { code: error.code } : {}) };
  } finally {
    clearTimeout(timer);
  }
}

function unavailable(): ToolSearchError {
  return new ToolSearchError(SessionsErrors.SESSIONS_UNAVAILABLE, 'no gateway runs turns in this process; the session tools work inside `tool-search gateway`');
}

type Execute = (args: Record<string, unknown>, ctx: ExecuteContext) => Promise<ToolResult> | ToolResult;

function tool(name: string, description: string, properties: Record<string, JsonSchema>, required: string[], execute: Execute): ToolDefinition {
  return {
    name,
    source: 'core',
    owner: 'core',
    description,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
    execute,
  };
}

function json(value: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}
