/**
 * The gateway's session state, behind an interface so it can move out of the
 * process (Redis) without the tools changing: every store method is async.
 */
import { keyTail } from './main-session.js';

/** How a session came to be: a client's conversation, a `sessions_spawn` child, a cron run. */
export type SessionKind = 'main' | 'spawn' | 'cron';

export type SessionStatus = 'idle' | 'running' | 'failed';

/** One transcript line. Tool lines carry the call's name and outcome status, not its full result. */
export interface TranscriptEntry {
  readonly role: 'user' | 'assistant' | 'tool';
  readonly content: string | null;
  readonly at: number;
  /** Tools the assistant called in this message. */
  readonly toolCalls?: readonly string[];
  /** A tool line: the tool's name and the call's status (ok, error, blocked, …). */
  readonly tool?: { readonly name: string; readonly status: string };
  /** A sub-agent's announce posted into its requester's session: the child's key and how it ended. */
  readonly announce?: { readonly from: string; readonly status: string };
}

export interface SessionRecord {
  /** `agent:<agentId>:<sessionId>`: the key the session tools take. */
  readonly key: string;
  readonly sessionId: string;
  readonly agentId: string;
  readonly kind: SessionKind;
  readonly label?: string;
  /** A spawned session: `run` (one task) or `session` (kept for follow-ups with sessions_send). */
  readonly mode?: 'run' | 'session';
  /** The session that spawned this one (`sessions_spawn`, cron runs bound to a session). */
  readonly parentId?: string;
  readonly model?: string;
  /** A spawned session's thinking level (`sessions_spawn` `thinking`). */
  readonly thinking?: string;
  /** A spawned session's working folder (`sessions_spawn` `cwd`). */
  readonly cwd?: string;
  /** A spawned session bound to a thread (`sessions_spawn` `thread: true`). */
  readonly thread?: boolean;
  /** What happens to a finished `run` child: `keep` (default) or `delete` (archived after its announce). */
  readonly cleanup?: 'keep' | 'delete';
  /** Archived: left out of `sessions_list` (a `cleanup: "delete"` child after its announce). */
  readonly archived?: boolean;
  readonly status: SessionStatus;
  readonly lastError?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Turns finished in this session. */
  readonly turns: number;
  /** Messages ever appended (the store may keep fewer). */
  readonly messageCount: number;
  /** Provider-reported tokens over the session's turns. */
  readonly usage: { readonly input: number; readonly output: number };
}

/** What a writer may set on a session; absent fields keep their value, and `model: null` clears the model override. */
export type SessionPatch = Partial<
  Omit<SessionRecord, 'key' | 'sessionId' | 'createdAt' | 'updatedAt' | 'messageCount' | 'model'>
> & { readonly model?: string | null };

export interface SessionStore {
  /** Creates the session or updates the given fields (a new session needs no more than its id). */
  upsert(sessionId: string, patch: SessionPatch): Promise<SessionRecord>;
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /** Every session, most recently updated first. */
  list(): Promise<SessionRecord[]>;
  append(sessionId: string, entry: TranscriptEntry): Promise<void>;
  /** The kept transcript, oldest first; `limit` keeps the newest `limit` entries. */
  transcript(sessionId: string, limit?: number): Promise<TranscriptEntry[]>;
}

/** One turn in a session, as the host's runner sees it. */
export interface SessionTurnRequest {
  readonly sessionId: string;
  readonly agentId?: string;
  /** The conversation to send: the session's kept transcript and the new user message, as chat messages. */
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly content: string }[];
  readonly model?: string;
  readonly signal?: AbortSignal;
}

export interface SessionTurnReply {
  readonly content: string | null;
  readonly finishReason: string;
  readonly model: string;
  readonly usage?: { readonly input: number; readonly output: number };
}

/** Runs one agent turn (the gateway's turn loop); the gateway binds it when it starts. */
export type SessionTurnRunner = (request: SessionTurnRequest) => Promise<SessionTurnReply>;

export const DEFAULT_AGENT_ID = 'main';

/** `agent:<agentId>:<sessionId>`; a main session's is `agent:<agentId>:main` (see main-session.ts). */
export function sessionKey(agentId: string, sessionId: string): string {
  return `agent:${agentId}:${keyTail(agentId, sessionId)}`;
}
