/**
 * Waking a session: a note from the system (a finished gateway restart) posted into a session so its agent learns
 * what happened without being asked. Where a gateway runs turns, the note is that session's next turn (the agent
 * answers it, as OpenClaw wakes the agent that asked for a restart); without a runner, or when the turn fails, the
 * note is appended to the transcript as an announce the agent reads on its next turn. Never throws.
 */
import type { SessionHost } from './host.js';

export interface WakeNote {
  /** Who sends it (`gateway`): kept as the transcript entry's `announce.from`. */
  readonly from: string;
  /** How it ended (`ok`, `error`). */
  readonly status: string;
  /** The message the session gets. */
  readonly content: string;
}

/** `woken`: the session ran a turn on the note; `noted`: the note waits in its transcript; `unknown-session`: nothing done. */
export type WakeOutcome = 'woken' | 'noted' | 'unknown-session';

export async function wakeSession(host: SessionHost, sessionId: string, note: WakeNote): Promise<WakeOutcome> {
  try {
    const record = await host.store.get(sessionId);
    if (!record) return 'unknown-session';
    if (host.bound) {
      try {
        await host.turn(sessionId, note.content, {
          agentId: record.agentId,
          ...(record.model ? { model: record.model } : {}),
        });
        return 'woken';
      } catch {
        // The provider may be down right after a restart: the note still waits in the transcript.
      }
    }
    await host.store.append(sessionId, {
      role: 'user',
      content: note.content,
      at: Date.now(),
      announce: { from: note.from, status: note.status },
    });
    return 'noted';
  } catch {
    return 'unknown-session';
  }
}
