/**
 * Which replica runs a background session. A session is a child process of
 * one machine, so it is never moved: the owner is recorded in the shared
 * state store (`exec:owner:<agent>:<sessionId>` → replica id, with a TTL), and
 * a `process` call for a session this replica does not hold answers
 * `PROCESS_ON_OTHER_REPLICA` naming the owner rather than routing the call.
 * A bounded index per agent (`exec:sessions:<agent>`) lets `process list` on
 * any replica name the sessions the others hold.
 */
import { ToolSearchError, type Logger } from '@tool-search/kernel';
import type { StateStore } from '@tool-search/state';
import { ExecErrors } from './errors.js';

/** How long an owner record lives past the session's own timeout (it is cleared with the session). */
export const OWNER_GRACE_MS = 60 * 60 * 1000;
/** Sessions an agent's index names across all replicas (the newest are kept). */
export const INDEXED_SESSIONS = 256;
/** How long the index lives past its last write. */
const INDEX_TTL_MS = 24 * 60 * 60 * 1000;

export class SessionOwners {
  constructor(
    readonly state: StateStore | undefined,
    readonly logger: () => Logger,
  ) {}

  /** Records this replica as the owner; a store outage only costs other replicas the pointer. */
  async claim(agent: string, sessionId: string, timeoutMs: number): Promise<void> {
    if (!this.state) return;
    try {
      await this.state.set(key(agent, sessionId), this.state.replicaId, { ttlMs: timeoutMs + OWNER_GRACE_MS });
      await this.state.index(indexKey(agent), sessionId, Date.now(), {
        max: INDEXED_SESSIONS,
        ttlMs: Math.max(INDEX_TTL_MS, timeoutMs + OWNER_GRACE_MS),
      });
    } catch (error) {
      this.logger().warn('could not record the background session owner; other replicas will not name it', {
        sessionId,
        error: String(error),
      });
    }
  }

  /** Drops the pointer; a store outage leaves it to expire with its TTL (`others` prunes index entries without one). */
  async release(agent: string, sessionId: string): Promise<void> {
    if (!this.state) return;
    try {
      await this.state.delete(key(agent, sessionId));
      await this.state.unindex(indexKey(agent), sessionId);
    } catch (error) {
      this.logger().warn('could not drop the background session owner; it expires with its TTL', {
        sessionId,
        cause: error,
      });
    }
  }

  /** The agent's sessions other replicas hold (`local` excluded); none when the store cannot answer (a read). */
  async others(agent: string, local: ReadonlySet<string>): Promise<{ sessionId: string; replica: string }[]> {
    if (!this.state) return [];
    const found: { sessionId: string; replica: string }[] = [];
    try {
      for (const sessionId of await this.state.members(indexKey(agent))) {
        if (local.has(sessionId)) continue;
        const replica = await this.state.get(key(agent, sessionId));
        if (replica === undefined) await this.state.unindex(indexKey(agent), sessionId);
        else if (replica !== this.state.replicaId) found.push({ sessionId, replica });
      }
    } catch (error) {
      this.logger().warn("the state store did not answer; process list shows this replica's sessions only", {
        error: String(error),
      });
    }
    return found;
  }

  /** For a session this replica does not hold: the error naming its owner, when another replica has it. */
  async elsewhere(agent: string, sessionId: string): Promise<ToolSearchError | undefined> {
    if (!this.state) return undefined;
    const replica = await this.state.get(key(agent, sessionId));
    if (replica === undefined || replica === this.state.replicaId) return undefined;
    return new ToolSearchError(
      ExecErrors.PROCESS_ON_OTHER_REPLICA,
      `Background session "${sessionId}" runs on replica "${replica}", not on this one ("${this.state.replicaId}"); its process calls must reach that replica (sticky routing), or start the command again here`,
      { details: { sessionId, replica, here: this.state.replicaId } },
    );
  }
}

function key(agent: string, sessionId: string): string {
  return `exec:owner:${agent}:${sessionId}`;
}

function indexKey(agent: string): string {
  return `exec:sessions:${agent}`;
}
