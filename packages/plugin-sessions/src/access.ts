/**
 * Who may see which session (`tools.sessions.visibility`) and spawn which
 * agent (`agents.list[].subagents.allowAgents`). Every refusal is a coded
 * error that names the rule.
 */
import { ConfigError, ErrorCode, ToolSearchError, type ExecuteContext } from '@tool-search/kernel';
import {
  DEFAULT_AGENT_ID,
  MAIN_SESSION_KEY,
  parseMainSessionId,
  sessionIdsOfKey,
  type SessionRecord,
  type SessionStore,
} from '@tool-search/sessions';
import { SessionsErrors } from './errors.js';

export const VISIBILITIES = ['self', 'tree', 'all'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const DEFAULT_VISIBILITY: Visibility = 'tree';

/** The parts of an `agents.list[]` entry the session tools act on. */
export interface AgentEntry {
  readonly id: string;
  readonly default?: boolean;
  readonly name?: string;
  readonly subagents?: { readonly allowAgents?: readonly string[] };
}

export interface Caller {
  readonly sessionId: string;
  readonly agentId: string;
}

/** Parent links followed at most this far (a cycle cannot loop). */
const MAX_DEPTH = 64;

export function checkVisibility(value: unknown): Visibility {
  if (value === undefined) return DEFAULT_VISIBILITY;
  if (typeof value === 'string' && (VISIBILITIES as readonly string[]).includes(value)) return value as Visibility;
  throw new ConfigError(
    '/tools/sessions/visibility',
    'enum',
    `tools.sessions.visibility must be one of ${VISIBILITIES.join(', ')} (default ${DEFAULT_VISIBILITY})`,
    {
      details: { value, allowed: VISIBILITIES },
    },
  );
}

/** `agents.defaults.sandbox.sessionToolsVisibility`: `spawned` (default) or `all`. */
export function checkSandboxVisibility(value: unknown): 'spawned' | 'all' {
  if (value === undefined) return 'spawned';
  if (value === 'spawned' || value === 'all') return value;
  throw new ConfigError(
    '/agents/defaults/sandbox/sessionToolsVisibility',
    'enum',
    'agents.defaults.sandbox.sessionToolsVisibility must be "spawned" (default) or "all"',
    {
      details: { value, allowed: ['spawned', 'all'] },
    },
  );
}

/** `session.agentToAgent.maxPingPongTurns`: an integer 0–5. */
export function checkPingPong(value: unknown): number {
  if (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 5) return value as number;
  throw new ConfigError(
    '/session/agentToAgent/maxPingPongTurns',
    'range',
    'session.agentToAgent.maxPingPongTurns must be an integer from 0 to 5 (default 5)',
    {
      details: { value, minimum: 0, maximum: 5 },
    },
  );
}

export function defaultAgentId(agents: readonly AgentEntry[]): string {
  return agents.find((agent) => agent.default)?.id ?? agents[0]?.id ?? DEFAULT_AGENT_ID;
}

export function callerOf(ctx: ExecuteContext, agents: readonly AgentEntry[]): Caller {
  return { sessionId: ctx.run.sessionId, agentId: ctx.run.request.agentId ?? defaultAgentId(agents) };
}

/** Whether `caller` may see `target` under `visibility` (tree: itself and the sessions it spawned, transitively). */
export async function visible(
  store: SessionStore,
  visibility: Visibility,
  caller: Caller,
  target: SessionRecord,
): Promise<boolean> {
  if (visibility === 'all' || target.sessionId === caller.sessionId) return true;
  if (visibility === 'self') return false;
  let parentId = target.parentId;
  for (let depth = 0; parentId !== undefined && depth < MAX_DEPTH; depth++) {
    if (parentId === caller.sessionId) return true;
    parentId = (await store.get(parentId))?.parentId;
  }
  return false;
}

/**
 * The session a call names (`sessionKey` or `sessionId`; neither: the caller's own), if the caller may see it. The
 * literal key `main` is the caller's agent's main session (OpenClaw's canonical direct-chat key).
 */
export async function resolveTarget(
  store: SessionStore,
  visibility: Visibility,
  caller: Caller,
  args: Record<string, unknown>,
  defaultAgent: string = DEFAULT_AGENT_ID,
): Promise<SessionRecord> {
  const key = typeof args.sessionKey === 'string' ? args.sessionKey : undefined;
  const id = typeof args.sessionId === 'string' ? args.sessionId : undefined;
  const record = await (id !== undefined
    ? store.get(id)
    : key === MAIN_SESSION_KEY
      ? mainSessionOf(store, caller, defaultAgent)
      : key !== undefined
        ? recordOfKey(store, key, defaultAgent)
        : store.get(caller.sessionId));
  if (!record || (key !== undefined && key !== MAIN_SESSION_KEY && record.key !== key)) {
    throw new ToolSearchError(
      SessionsErrors.SESSION_UNKNOWN,
      key === MAIN_SESSION_KEY
        ? `agent "${caller.agentId}" has no main session yet: a gateway request without x-session-id starts it`
        : `no session ${key ?? id ?? caller.sessionId}; sessions_list shows the sessions you can see`,
      { details: { sessionKey: key, sessionId: id } },
    );
  }
  if (!(await visible(store, visibility, caller, record))) {
    throw new ToolSearchError(
      SessionsErrors.SESSION_NOT_VISIBLE,
      `session ${record.key} is not visible with tools.sessions.visibility "${visibility}"`,
      {
        details: { sessionKey: record.key, visibility, rule: 'tools.sessions.visibility' },
      },
    );
  }
  return record;
}

/** Agents the caller may spawn: itself always; others listed in its `subagents.allowAgents` (`"*"`: any configured). */
export function allowedAgents(agents: readonly AgentEntry[], callerAgentId: string): string[] {
  const own = agents.find((agent) => agent.id === callerAgentId);
  const allow = own?.subagents?.allowAgents ?? [];
  const known = agents.length ? agents.map((agent) => agent.id) : [callerAgentId];
  const others = allow.includes('*') ? known : known.filter((id) => allow.includes(id));
  return [...new Set([callerAgentId, ...others])];
}

export function checkSpawnAgent(agents: readonly AgentEntry[], caller: Caller, agentId: string): void {
  if (agents.length && !agents.some((agent) => agent.id === agentId)) {
    throw new ToolSearchError(
      ErrorCode.AGENT_UNKNOWN,
      `agents.list has no agent "${agentId}"; agents_list shows the ones you can spawn`,
      {
        details: { agentId, suggestions: allowedAgents(agents, caller.agentId) },
      },
    );
  }
  if (!allowedAgents(agents, caller.agentId).includes(agentId)) {
    throw new ToolSearchError(
      SessionsErrors.SUBAGENT_NOT_ALLOWED,
      `agent "${caller.agentId}" may not spawn "${agentId}": it is not in its agents.list[].subagents.allowAgents`,
      {
        details: { agentId, requester: caller.agentId, rule: 'agents.list[].subagents.allowAgents' },
      },
    );
  }
}

/** OpenClaw's `agents.defaults.subagents` bounds: how deep spawns nest, how many children run at once per session. */
export interface SpawnLimits {
  readonly maxSpawnDepth: number;
  readonly maxChildren: number;
  /** `agents.defaults.subagents.runTimeoutSeconds`: a spawn's default run timeout (absent: none). */
  readonly runTimeoutSeconds?: number;
}

export const DEFAULT_SPAWN_LIMITS: SpawnLimits = { maxSpawnDepth: 1, maxChildren: 5 };

/** One reserved child slot: taken before any await, released when the spawn is refused or the child's turn ends. */
export interface ChildSlot {
  /** This slot's place among the parent's reserved slots in this process (1 = oldest still held). */
  rank(): number;
  /** Whether `sessionId` is a child reserved in this process (counted by rank, not again from the store). */
  holds(sessionId: string): boolean;
  release(): void;
}

/**
 * `maxChildrenPerAgent` made atomic in this process: a spawn reserves its child's slot synchronously, before its first
 * await, so concurrent spawns cannot all pass a count taken before any of them started (check-then-act).
 */
export class ChildSlots {
  readonly #byParent = new Map<string, Set<string>>();

  /** Reserves a slot for `childId` under `parentId`, or refuses at once when `max` slots are held there already. */
  reserve(parentId: string, childId: string, max: number): ChildSlot {
    const held = this.#byParent.get(parentId) ?? new Set<string>();
    if (held.size >= max) throw tooManyChildren(held.size, max);
    held.add(childId);
    this.#byParent.set(parentId, held);
    return {
      rank: () => [...held].indexOf(childId) + 1,
      holds: (sessionId) => held.has(sessionId),
      release: () => {
        held.delete(childId);
        if (held.size === 0 && this.#byParent.get(parentId) === held) this.#byParent.delete(parentId);
      },
    };
  }
}

/**
 * The one operation of a shared state store (`@tool-search/state`, Redis behind replicas) the spawn limit needs: an
 * atomic add that returns the new value (HINCRBY), so replicas reserve children of one session without a race.
 */
export interface SharedCounter {
  increment(key: string, field: string, by: number, ttlMs: number): Promise<number>;
}

/** How long a parent's shared child count lives after its last change: slots a dead replica held come back then. */
export const SHARED_SLOTS_TTL_MS = 6 * 60 * 60 * 1000;

/**
 * Takes one of the parent's `max` slots in the shared store with one atomic increment (given back at once when over),
 * and returns how to release it. Across replicas this is the check; in-process, `ChildSlots` already ordered spawns.
 */
export async function reserveShared(shared: SharedCounter, parentId: string, max: number): Promise<() => void> {
  const key = `sessions:spawn-slots:${parentId}`;
  const give = () => shared.increment(key, 'children', -1, SHARED_SLOTS_TTL_MS).catch(() => undefined); // the key's TTL ends a slot a failed release keeps
  const held = await shared.increment(key, 'children', 1, SHARED_SLOTS_TTL_MS);
  if (held > max) {
    await give();
    throw tooManyChildren(held - 1, max);
  }
  return () => void give();
}

/**
 * Refuses a spawn that would nest deeper than `maxSpawnDepth` or exceed `maxChildren` running children: the running
 * children the store shows that this process did not reserve (a restart, another replica) plus this slot's rank.
 */
export async function checkSpawnLimits(
  store: SessionStore,
  limits: SpawnLimits,
  caller: Caller,
  slot: ChildSlot,
): Promise<void> {
  let depth = 0;
  let parentId = (await store.get(caller.sessionId))?.parentId;
  while (parentId !== undefined && depth < MAX_DEPTH) {
    depth++;
    parentId = (await store.get(parentId))?.parentId;
  }
  if (depth + 1 > limits.maxSpawnDepth) {
    throw new ToolSearchError(
      SessionsErrors.SUBAGENT_NOT_ALLOWED,
      `a session at spawn depth ${depth} may not spawn: agents.defaults.subagents.maxSpawnDepth is ${limits.maxSpawnDepth}`,
      {
        details: { depth, rule: 'agents.defaults.subagents.maxSpawnDepth', limit: limits.maxSpawnDepth },
      },
    );
  }
  const elsewhere = (await store.list()).filter(
    (s) => s.parentId === caller.sessionId && s.kind === 'spawn' && s.status === 'running' && !slot.holds(s.sessionId),
  ).length;
  if (elsewhere + slot.rank() > limits.maxChildren)
    throw tooManyChildren(elsewhere + slot.rank() - 1, limits.maxChildren);
}

function tooManyChildren(running: number, limit: number): ToolSearchError {
  return new ToolSearchError(
    SessionsErrors.SUBAGENT_NOT_ALLOWED,
    `${running} sub-agents of this session are already running or starting: agents.defaults.subagents.maxChildrenPerAgent is ${limit}`,
    { details: { running, rule: 'agents.defaults.subagents.maxChildrenPerAgent', limit } },
  );
}

/** The session `key` names (`agent:<agentId>:<id>`, a main session's `agent:<agentId>:main`), if any. */
async function recordOfKey(store: SessionStore, key: string, defaultAgent: string): Promise<SessionRecord | undefined> {
  for (const id of sessionIdsOfKey(key, defaultAgent)) {
    const record = await store.get(id);
    if (record?.key === key) return record;
  }
  return undefined;
}

/**
 * The caller's main session (`sessionKey: "main"`): its own session when that is its agent's main session, else the
 * nearest one it was spawned from (behind API keys each key has its own), else its agent's main session.
 */
async function mainSessionOf(
  store: SessionStore,
  caller: Caller,
  defaultAgent: string,
): Promise<SessionRecord | undefined> {
  let record = await store.get(caller.sessionId);
  for (let depth = 0; record && depth < MAX_DEPTH; depth++) {
    if (parseMainSessionId(record.sessionId) && record.agentId === caller.agentId) return record;
    record = record.parentId === undefined ? undefined : await store.get(record.parentId);
  }
  return recordOfKey(store, `agent:${caller.agentId}:${MAIN_SESSION_KEY}`, defaultAgent);
}
