/**
 * Which replica holds a suspended client-tool hand-off. The turn cannot move:
 * it is a live run with its script waiting on a promise. So the owner is
 * recorded in the shared store by handed-off call id, and a request that
 * brings results for those ids to another replica answers
 * `TURN_ON_OTHER_REPLICA` naming the owner instead of starting a new turn.
 */
import { createHash } from 'node:crypto';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { errorMessage, ToolSearchError } from '@tool-search/kernel';
import type { StateStore } from '@tool-search/state';
import { GatewayErrors } from './errors.js';

export interface HandoffOwners {
  /** Records this replica as the owner of the handed-off calls (for as long as the turn waits); a failed write is logged, the answer still goes out. */
  record(callIds: readonly string[]): Promise<void>;
  /** Throws `TURN_ON_OTHER_REPLICA` when the trailing `tool` messages answer a turn another replica holds. */
  check(messages: readonly ChatCompletionMessageParam[]): Promise<void>;
  /** Forgets the calls of a resumed turn (best effort: the record expires with the turn anyway). */
  forget(callIds: readonly string[]): Promise<void>;
}

/** Trailing results looked up per request: a bound on store reads, whatever the client sends. */
const MAX_CHECKED = 16;

export function handoffOwners(state: StateStore, ttlMs: number, log: (line: string) => void): HandoffOwners {
  const logged = (error: unknown) => log(`gateway: hand-off owner record: ${errorMessage(error)}`);
  return {
    async record(callIds) {
      await Promise.all(callIds.map((id) => state.set(key(id), state.replicaId, { ttlMs }))).catch(logged);
    },
    async check(messages) {
      for (const id of trailingResultIds(messages).slice(0, MAX_CHECKED)) {
        const owner = await state.get(key(id));
        if (owner === undefined || owner === state.replicaId) continue;
        throw new ToolSearchError(
          GatewayErrors.TURN_ON_OTHER_REPLICA,
          `The turn waiting for tool call "${id}" is held by replica "${owner}" (a suspended hand-off cannot move); send this request to that replica`,
          { details: { callId: id, replica: owner } },
        );
      }
    },
    async forget(callIds) {
      await Promise.all(callIds.map((id) => state.delete(key(id)))).catch(logged);
    },
  };
}

function trailingResultIds(messages: readonly ChatCompletionMessageParam[]): string[] {
  const ids: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'tool') break;
    ids.push(message.tool_call_id);
  }
  return ids;
}

/** Hashed: the ids checked come from the client's messages, so the key stays bounded whatever it sends. */
function key(callId: string): string {
  return `gateway:handoff:${createHash('sha256').update(callId).digest('hex')}`;
}
