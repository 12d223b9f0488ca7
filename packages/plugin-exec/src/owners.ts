/**
 * Which replica runs a background session. A session is a child process of
 * one machine, so it is never moved: the owner is recorded in the shared
 * state store (`exec:owner:<agent>:<sessionId>` → replica id, with a TTL), and
 * a `process` call for a session this replica does not hold answers
 * `PROCESS_ON_OTHER_REPLICA` naming the owner rather than routing the call.
 */
import { ErrorCode, ToolSearchError, type Logger } from '@tool-search/kernel';
import type { StateStore } from '@tool-search/state';

/** How long an owner record lives past the session's own timeout (it is cleared with the session). */
export const OWNER_GRACE_MS = 60 * 60 * 1000;

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
    } catch (error) {
      this.logger().warn('could not record the background session owner; other replicas will not name it', { sessionId, error: String(error) });
    }
  }

  async release(agent: string, sessionId: string): Promise<void> {
    await this.state?.delete(key(agent, sessionId)).catch(() => false);
  }

  /** For a session this replica does not hold: the error naming its owner, when another replica has it. */
  async elsewhere(agent: string, sessionId: string): Promise<ToolSearchError | undefined> {
    if (!this.state) return undefined;
    const replica = await this.state.get(key(agent, sessionId));
    if (replica === undefined || replica === this.state.replicaId) return undefined;
    return new ToolSearchError(
      ErrorCode.PROCESS_ON_OTHER_REPLICA,
      `Background session "${sessionId}" runs on replica "${replica}", not on this one ("${this.state.replicaId}"); its process calls must reach that replica (sticky routing), or start the command again here`,
      { details: { sessionId, replica, here: this.state.replicaId } },
    );
  }
}

function key(agent: string, sessionId: string): string {
  return `exec:owner:${agent}:${sessionId}`;
}
