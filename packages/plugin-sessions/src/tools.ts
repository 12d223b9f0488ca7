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
  errorMessage,
} from '@tool-search/kernel';
import type { SessionHost, SessionRecord, SessionTurnReply, TranscriptEntry } from '@tool-search/sessions';
import { SessionsErrors } from './errors.js';
import { SessionsErrors as SessionStoreErrors } from '@tool-search/sessions';
import { ATTACH_AS_SCHEMA, attachmentNote, checkMountPath, withMountPath } from './attach-as.js';
import {
  ATTACHMENT_SCHEMA,
  DEFAULT_ATTACHMENT_LIMITS,
  materialize,
  type AttachmentInput,
  type AttachmentReceipt,
  type AttachmentLimits,
} from './attachments.js';
import {
  allowedAgents,
  callerOf,
  ChildSlots,
  checkSpawnAgent,
  reserveShared,
  type Caller,
  type ChildSlot,
  type SharedCounter,
  checkSpawnLimits,
  defaultAgentId,
  resolveTarget,
  visible,
  type AgentEntry,
  type SpawnLimits,
  type Visibility,
} from './access.js';

export interface SessionToolsContext {
  readonly host: SessionHost;
  readonly visibility: Visibility;
  readonly agents: readonly AgentEntry[];
  readonly limits: SpawnLimits;
  readonly now?: () => number;
  /** More fields for `session_status` (the preset adds the session's telemetry counters); a failure leaves them out. */
  readonly statusFields?: (record: SessionRecord) => Promise<Record<string, unknown>>;
  /** Where `sessions_spawn` attachments are written (`.openclaw/attachments/<uuid>/`); default the working folder. */
  readonly workspace?: string;
  /** `tools.sessions_spawn.attachments` limits (off by default). */
  readonly attachments?: AttachmentLimits;
  /** `session.agentToAgent`: the reply-back ping-pong and announce after `sessions_send` (off when absent). */
  readonly agentToAgent?: { readonly maxPingPongTurns: number };
  /** `agents.defaults.sandbox.sessionToolsVisibility`: `spawned` (default) clamps a sandboxed run to `tree`; `all` does not. */
  readonly sandboxVisibility?: 'spawned' | 'all';
  /** The shared state store of replicas: `maxChildrenPerAgent` is then also held there, with an atomic increment. */
  readonly shared?: SharedCounter;
}

export const DEFAULT_LIST_LIMIT = 50;
export const DEFAULT_HISTORY_LIMIT = 50;
export const DEFAULT_SEND_TIMEOUT_SECONDS = 30;
/** A reply of exactly this ends the agent-to-agent ping-pong. */
export const REPLY_SKIP = 'REPLY_SKIP';
/** An announce reply of exactly this posts nothing. */
export const ANNOUNCE_SKIP = 'ANNOUNCE_SKIP';
const ANNOUNCE_PROMPT = (requester: string) =>
  `Agent-to-agent exchange with ${requester} is done. Write the announce for that session (one short message), or reply exactly ${ANNOUNCE_SKIP} to stay silent.`;
/** OpenClaw's `session.agentToAgent.maxPingPongTurns` range and default. */
export const MAX_PING_PONG_TURNS = 5;
/** OpenClaw's thinking levels. */
export const THINKING_LEVELS = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
const target: Record<string, JsonSchema> = {
  sessionKey: {
    type: 'string',
    minLength: 1,
    description:
      'Session key (agent:<agentId>:<sessionId>), as sessions_list shows it; "main" is your agent\'s main (direct-chat) session.',
  },
  sessionId: { type: 'string', minLength: 1, description: 'Session id (instead of sessionKey).' },
};

export function sessionTools(c: SessionToolsContext): ToolDefinition[] {
  const now = c.now ?? Date.now;
  const { store } = c.host;
  const childSlots = new ChildSlots();
  return [
    tool(
      'sessions_list',
      'List the gateway sessions you can see (yours and the ones you spawned, by default): key, kind, agent, model, status, message counts, timestamps.',
      {
        kinds: {
          type: 'array',
          items: { type: 'string', enum: ['main', 'spawn', 'cron'] },
          description: 'Only these kinds.',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 200,
          description: `Sessions to return (default ${DEFAULT_LIST_LIMIT}), most recent first.`,
        },
        activeMinutes: { type: 'integer', minimum: 1, description: 'Only sessions updated within this many minutes.' },
        messageLimit: {
          type: 'integer',
          minimum: 0,
          maximum: 20,
          description: 'Also return the last N messages of each session (default 0).',
        },
      },
      [],
      async (args, ctx) => {
        const caller = callerOf(ctx, c.agents);
        const kinds = Array.isArray(args.kinds) ? (args.kinds as string[]) : undefined;
        const since = typeof args.activeMinutes === 'number' ? now() - args.activeMinutes * 60_000 : undefined;
        const limit = typeof args.limit === 'number' ? args.limit : DEFAULT_LIST_LIMIT;
        const messageLimit = typeof args.messageLimit === 'number' ? args.messageLimit : 0;
        const sessions: Record<string, unknown>[] = [];
        for (const record of await store.list()) {
          if (sessions.length >= limit) break;
          if (record.archived) continue; // a cleanup: "delete" child after its announce
          if (kinds && !kinds.includes(record.kind)) continue;
          if (since !== undefined && record.updatedAt < since) continue;
          if (!(await visible(store, visibilityFor(ctx), caller, record))) continue;
          const messages = messageLimit
            ? chat(await store.transcript(record.sessionId), false).slice(-messageLimit)
            : undefined;
          sessions.push({ ...(await summary(record)), ...(messages ? { messages } : {}) });
        }
        return json({ visibility: visibilityFor(ctx), count: sessions.length, sessions });
      },
    ),
    tool(
      'sessions_history',
      'Read the transcript of one session you can see (default: your own). Tool lines are left out unless includeTools is true.',
      {
        ...target,
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 200,
          description: `Newest messages to return (default ${DEFAULT_HISTORY_LIMIT}).`,
        },
        includeTools: { type: 'boolean', description: 'Include tool calls and their status (default false).' },
      },
      [],
      async (args, ctx) => {
        const record = await targetOf(ctx, args);
        const limit = typeof args.limit === 'number' ? args.limit : DEFAULT_HISTORY_LIMIT;
        const all = chat(await store.transcript(record.sessionId), args.includeTools === true);
        return json({
          sessionKey: record.key,
          total: record.messageCount,
          truncated: all.length > limit,
          messages: all.slice(-limit),
        });
      },
    ),
    tool(
      'sessions_send',
      'Send a message to another session you can see and, unless timeoutSeconds is 0 (fire and forget), wait for its reply.',
      {
        ...target,
        message: { type: 'string', minLength: 1, description: 'The message, as a user turn in that session.' },
        timeoutSeconds: {
          type: 'integer',
          minimum: 0,
          maximum: 3600,
          description: `Seconds to wait for the reply (default ${DEFAULT_SEND_TIMEOUT_SECONDS}; 0 = do not wait).`,
        },
      },
      ['message'],
      async (args, ctx) => {
        const caller = callerOf(ctx, c.agents);
        if (args.sessionKey === undefined && args.sessionId === undefined)
          throw new ToolSearchError(ErrorCode.TOOL_ARGUMENTS_INVALID, 'sessions_send needs sessionKey or sessionId');
        const record = await targetOf(ctx, args, caller);
        if (record.sessionId === caller.sessionId) {
          throw new ToolSearchError(
            SessionsErrors.SESSION_SEND_SELF,
            'sessions_send cannot target your own session: your turn is the one running there',
            { details: { sessionKey: record.key } },
          );
        }
        const timeout = typeof args.timeoutSeconds === 'number' ? args.timeoutSeconds : DEFAULT_SEND_TIMEOUT_SECONDS;
        const turn = c.host.turn(record.sessionId, String(args.message), {
          ...runAgent(record.agentId),
          ...(record.model ? { model: record.model } : {}),
        });
        // The reply-back ping-pong and the target's announce run in the background, after the first reply.
        if (c.agentToAgent)
          void turn
            .then((reply) => agentToAgent(caller, record, reply.content ?? '', c.agentToAgent!.maxPingPongTurns))
            .catch(() => undefined); // each turn's failure is on its session (status, lastError)
        if (timeout === 0) {
          turn.catch(() => undefined); // the failure is on the session (status, lastError)
          return json({ status: 'accepted', sessionKey: record.key });
        }
        return json({ sessionKey: record.key, ...(await waitFor(turn, timeout * 1000, ctx.signal)) });
      },
    ),
    tool(
      'sessions_spawn',
      'Start a sub-agent in a new isolated session on a task, in the background; returns at once with status "accepted" and the child session key. When it finishes, its announce (Status, Result, stats) is posted back to your session.',
      {
        task: { type: 'string', minLength: 1, description: 'What the sub-agent should do (its first user message).' },
        label: { type: 'string', maxLength: 200, description: 'A short name for the session.' },
        runtime: {
          type: 'string',
          enum: ['subagent', 'acp'],
          description:
            '"subagent" (default): a Tool Search turn loop; "acp": an ACP harness, refused unless one is configured.',
        },
        agentId: {
          type: 'string',
          minLength: 1,
          description: 'Agent to run (default: yours); agents_list shows the allowed ones.',
        },
        model: { type: 'string', minLength: 1, description: "Model for the sub-agent (default: the gateway's)." },
        thinking: { type: 'string', enum: [...THINKING_LEVELS], description: 'Thinking level for the sub-agent.' },
        cwd: {
          type: 'string',
          minLength: 1,
          maxLength: 4096,
          description: 'Working folder for the sub-agent (recorded on its session).',
        },
        runTimeoutSeconds: {
          type: 'integer',
          minimum: 0,
          maximum: 86400,
          description:
            'Abort the run after this many seconds (0 = no limit; default agents.defaults.subagents.runTimeoutSeconds, else none).',
        },
        thread: {
          type: 'boolean',
          description: 'Bind the child to a thread (default false); thread: true makes mode default to "session".',
        },
        mode: {
          type: 'string',
          enum: ['run', 'session'],
          description:
            '"run" (default): one task; "session" (needs thread: true): kept for follow-ups with sessions_send.',
        },
        cleanup: {
          type: 'string',
          enum: ['keep', 'delete'],
          description: '"keep" (default) or "delete": archive the child session once its announce is posted.',
        },
        sandbox: {
          type: 'string',
          enum: ['inherit', 'require'],
          description: '"inherit" (default) or "require": refuse unless this run is sandboxed.',
        },
        streamTo: {
          type: 'string',
          enum: ['parent'],
          description:
            '"parent" streams an ACP run\'s progress to your session; runtime "acp" only (there is none here), so it is refused.',
        },
        attachments: ATTACHMENT_SCHEMA as unknown as JsonSchema,
        attachAs: ATTACH_AS_SCHEMA as unknown as JsonSchema,
      },
      ['task'],
      async (args, ctx) => {
        const caller = callerOf(ctx, c.agents);
        if (args.runtime === 'acp') {
          throw new ToolSearchError(
            SessionsErrors.SESSIONS_RUNTIME_UNAVAILABLE,
            'runtime "acp" needs an ACP runtime (acp.* in OpenClaw), and none is configured here; use runtime "subagent"',
            { details: { runtime: 'acp' } },
          );
        }
        if (args.streamTo !== undefined) {
          // OpenClaw streams only ACP runs to the parent and refuses streamTo for runtime "subagent".
          throw new ToolSearchError(
            SessionsErrors.SESSIONS_STREAM_UNSUPPORTED,
            'streamTo "parent" relays an ACP run\'s progress and is for runtime "acp" only; sub-agent results come back as the announce',
            { details: { streamTo: args.streamTo, runtime: 'subagent' } },
          );
        }
        checkMountPath(args.attachAs);
        const thread = args.thread === true;
        const mode = args.mode === 'session' || (args.mode === undefined && thread) ? 'session' : 'run';
        if (mode === 'session' && !thread) {
          throw new ToolSearchError(
            SessionsErrors.SESSIONS_SPAWN_INVALID,
            'mode "session" needs thread: true (a persistent child is bound to a thread)',
            { details: { mode, thread } },
          );
        }
        if (args.sandbox === 'require' && ctx.run.request.sandboxed !== true) {
          throw new ToolSearchError(
            SessionsErrors.SESSIONS_SANDBOX_REQUIRED,
            'sandbox "require": this run is not sandboxed, so its child would not be either',
            { details: { sandbox: 'require' } },
          );
        }
        const agentId = typeof args.agentId === 'string' ? args.agentId : caller.agentId;
        checkSpawnAgent(c.agents, caller, agentId);
        if (!c.host.bound) throw unavailable();
        const sessionId = `spawn-${randomUUID()}`;
        // Taken before the first await, so concurrent spawns cannot all pass the count (released on any refusal).
        const slot = childSlots.reserve(caller.sessionId, sessionId, c.limits.maxChildren);
        const { child, seconds, attachments } = await startChild(
          args,
          caller,
          agentId,
          { sessionId, mode, thread },
          slot,
        ).catch((error: unknown) => {
          slot.release();
          throw error;
        });
        return json({
          status: 'accepted',
          childSessionKey: child.key,
          sessionId,
          agentId,
          mode,
          runtime: 'subagent',
          ...(seconds ? { runTimeoutSeconds: seconds } : {}),
          ...(attachments ? { attachments } : {}),
        });
      },
    ),
    tool(
      'session_status',
      'Show the status card of a session you can see (default: your own): agent, model, status, turns, messages, tokens, timestamps. model sets the session\'s model override ("default" clears it).',
      {
        ...target,
        model: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: 'Set this session\'s model for its next turns; "default" clears the override.',
        },
      },
      [],
      async (args, ctx) => {
        let record = await targetOf(ctx, args);
        if (typeof args.model === 'string')
          record = await store.upsert(record.sessionId, { model: args.model === 'default' ? null : args.model });
        const extra = c.statusFields ? await c.statusFields(record).catch(() => ({})) : {};
        return json({
          ...(await summary(record)),
          ...(typeof args.model === 'string' ? { modelOverride: args.model === 'default' ? null : args.model } : {}),
          ...extra,
        });
      },
    ),
    tool(
      'agents_list',
      'List the agent ids you may use with sessions_spawn (agents.list[].subagents.allowAgents).',
      {},
      [],
      (_args, ctx) => {
        const caller = callerOf(ctx, c.agents);
        const agents = allowedAgents(c.agents, caller.agentId).map((id) => {
          const entry = c.agents.find((agent) => agent.id === id);
          return {
            id,
            ...(entry?.name ? { name: entry.name } : {}),
            ...(entry?.default ? { default: true } : {}),
            self: id === caller.agentId,
          };
        });
        // `allowAgents: ["*"]`: any configured agent, now and later.
        const allowAny =
          c.agents.find((agent) => agent.id === caller.agentId)?.subagents?.allowAgents?.includes('*') === true;
        return json({ requester: caller.agentId, allowAny, agents });
      },
    ),
  ];

  /**
   * A spawn once its arguments are checked: the limits (this process's slot, then the replicas' shared count when
   * there is a shared store), then `startChecked`. Throws before the child exists on any refusal.
   */
  async function startChild(
    args: Record<string, unknown>,
    caller: Caller,
    agentId: string,
    spawn: { sessionId: string; mode: 'run' | 'session'; thread: boolean },
    slot: ChildSlot,
  ): Promise<{ child: SessionRecord; seconds: number; attachments?: AttachmentReceipt }> {
    await checkSpawnLimits(store, c.limits, caller, slot);
    if (!c.shared) return startChecked(args, caller, agentId, spawn, slot);
    const releaseShared = await reserveShared(c.shared, caller.sessionId, c.limits.maxChildren);
    const both: ChildSlot = {
      ...slot,
      release: () => {
        slot.release();
        releaseShared();
      },
    };
    return startChecked(args, caller, agentId, spawn, both).catch((error: unknown) => {
      releaseShared();
      throw error;
    });
  }

  /** `startChild` once the limits hold: the attachments, the child session and its turn (releasing `slot` at its end). */
  async function startChecked(
    args: Record<string, unknown>,
    caller: Caller,
    agentId: string,
    spawn: { sessionId: string; mode: 'run' | 'session'; thread: boolean },
    slot: ChildSlot,
  ): Promise<{ child: SessionRecord; seconds: number; attachments?: AttachmentReceipt }> {
    const { sessionId, mode, thread } = spawn;
    const model = typeof args.model === 'string' ? args.model : undefined;
    const cleanup = args.cleanup === 'delete' ? 'delete' : 'keep';
    // Written before the child exists: a refused attachment leaves no session and no file behind.
    const given = Array.isArray(args.attachments) ? (args.attachments as AttachmentInput[]) : [];
    const attachments = given.length
      ? withMountPath(
          await materialize(c.workspace ?? process.cwd(), given, c.attachments ?? DEFAULT_ATTACHMENT_LIMITS),
          args.attachAs,
        )
      : undefined;
    const task = attachments ? `${String(args.task)}\n\n${attachmentNote(attachments)}` : String(args.task);
    const child = await store.upsert(sessionId, {
      agentId,
      kind: 'spawn',
      mode,
      parentId: caller.sessionId,
      cleanup,
      ...(thread ? { thread } : {}),
      ...(typeof args.label === 'string' ? { label: args.label } : {}),
      ...(model ? { model } : {}),
      ...(typeof args.thinking === 'string' ? { thinking: args.thinking } : {}),
      ...(typeof args.cwd === 'string' ? { cwd: args.cwd } : {}),
    });
    const seconds =
      typeof args.runTimeoutSeconds === 'number' ? args.runTimeoutSeconds : (c.limits.runTimeoutSeconds ?? 0);
    const started = now();
    const signal = seconds ? AbortSignal.timeout(seconds * 1000) : undefined;
    const turn = c.host.turn(sessionId, task, {
      ...runAgent(agentId),
      ...(model ? { model } : {}),
      ...(signal ? { signal } : {}),
    });
    // The announce goes back to the requester whatever the outcome (the child's status and lastError are on its session too).
    void turn
      .then(
        (reply) => announce(child.sessionId, caller.sessionId, { status: 'ok', reply }, started),
        (error: unknown) =>
          announce(
            child.sessionId,
            caller.sessionId,
            { status: signal?.aborted ? 'timeout' : 'error', error },
            started,
          ),
      )
      .finally(() => slot.release());
    return { child, seconds, ...(attachments ? { attachments } : {}) };
  }

  /**
   * The finished child's announce, posted into the requester's session: Status, Result (the reply, else the latest
   * tool result of the child), and a compact stats line. A `cleanup: "delete"` child is archived after it.
   */
  async function announce(
    childId: string,
    parentId: string,
    outcome: { status: 'ok' | 'error' | 'timeout'; reply?: SessionTurnReply; error?: unknown },
    started: number,
  ): Promise<void> {
    try {
      const child = await store.get(childId);
      if (!child) return;
      const transcript = await store.transcript(childId);
      const lastTool =
        [...transcript].reverse().find((entry) => entry.role === 'tool' && entry.content)?.content ?? undefined;
      const result =
        outcome.reply?.content?.trim() ||
        lastTool ||
        (outcome.error instanceof Error
          ? outcome.error.message
          : outcome.error !== undefined
            ? String(outcome.error)
            : '(no result)');
      const seconds = Math.max(0, Math.round((now() - started) / 100) / 10);
      const stats = `runtime ${seconds}s · tokens ${child.usage.input} in / ${child.usage.output} out · turns ${child.turns} · ${child.key}`;
      const content = `[sub-agent ${child.label ?? child.sessionId} finished]\nStatus: ${outcome.status}\nResult: ${result}\nStats: ${stats}`;
      await store.append(parentId, {
        role: 'user',
        content,
        at: now(),
        announce: { from: child.key, status: outcome.status },
      });
      if (child.cleanup === 'delete' && child.mode !== 'session') await store.upsert(childId, { archived: true });
    } catch {
      // The child's own session keeps its status and lastError; a lost announce must not take the gateway down.
    }
  }

  /**
   * OpenClaw's agent-to-agent loop after a `sessions_send` reply: requester and target answer each other, up to
   * `maxPingPongTurns` turns in all, until a side replies exactly `REPLY_SKIP`; then the target is asked for an
   * announce, posted into the requester's session unless it replies exactly `ANNOUNCE_SKIP`.
   */
  async function agentToAgent(
    caller: { sessionId: string; agentId: string },
    target: SessionRecord,
    first: string,
    maxTurns: number,
  ): Promise<void> {
    const requester = await store.upsert(caller.sessionId, {});
    const as = (record: SessionRecord) => ({
      ...runAgent(record.agentId),
      ...(record.model ? { model: record.model } : {}),
    });
    let last = first;
    let turns = 0;
    let speaker: 'requester' | 'target' = 'requester';
    while (turns < maxTurns && last.trim() !== REPLY_SKIP) {
      const [to, from] = speaker === 'requester' ? [requester, target] : [target, requester];
      last =
        (await c.host.turn(to.sessionId, `[agent-to-agent reply from ${from.key}]\n${last}`, as(to))).content ?? '';
      turns++;
      speaker = speaker === 'requester' ? 'target' : 'requester';
    }
    const announce = (
      (await c.host.turn(target.sessionId, ANNOUNCE_PROMPT(requester.key), as(target))).content ?? ''
    ).trim();
    if (!announce || announce === ANNOUNCE_SKIP) return;
    await store.append(caller.sessionId, {
      role: 'user',
      content: `[announce from ${target.key}]\n${announce}`,
      at: now(),
      announce: { from: target.key, status: 'ok' },
    });
  }

  /**
   * OpenClaw's sandbox clamp: a sandboxed run sees at most the sessions it spawned (`tree`), whatever
   * `tools.sessions.visibility` says, unless `agents.defaults.sandbox.sessionToolsVisibility` is `"all"`.
   */
  function visibilityFor(ctx: ExecuteContext): Visibility {
    if (ctx.run.request.sandboxed !== true || c.sandboxVisibility === 'all') return c.visibility;
    return c.visibility === 'all' ? 'tree' : c.visibility;
  }

  /** The session a call names (default the caller's own; `main`: its agent's main session), if the caller may see it. */
  function targetOf(ctx: ExecuteContext, args: Record<string, unknown>, caller = callerOf(ctx, c.agents)) {
    return resolveTarget(store, visibilityFor(ctx), caller, args, defaultAgentId(c.agents));
  }

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

async function waitFor(
  turn: Promise<{ content: string | null; model: string }>,
  ms: number,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  const aborted = new Promise<'timeout'>((resolve) =>
    signal.addEventListener('abort', () => resolve('timeout'), { once: true }),
  );
  try {
    const reply = await Promise.race([turn, timedOut, aborted]);
    if (reply === 'timeout') {
      turn.catch(() => undefined); // the turn goes on; its failure is on the session (status, lastError)
      return { status: 'timeout', note: 'the turn goes on; read its reply later with sessions_history' };
    }
    return { status: 'ok', reply: reply.content, model: reply.model };
  } catch (error) {
    return {
      status: 'error',
      error: errorMessage(error),
      ...(ToolSearchError.isInstance(error) ? { code: error.code } : {}),
    };
  } finally {
    clearTimeout(timer);
  }
}

function unavailable(): ToolSearchError {
  return new ToolSearchError(
    SessionStoreErrors.SESSIONS_UNAVAILABLE,
    'no gateway runs turns in this process; the session tools work inside `tool-search gateway`',
  );
}

type Execute = (args: Record<string, unknown>, ctx: ExecuteContext) => Promise<ToolResult> | ToolResult;

function tool(
  name: string,
  description: string,
  properties: Record<string, JsonSchema>,
  required: string[],
  execute: Execute,
): ToolDefinition {
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
