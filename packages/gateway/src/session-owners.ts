/**
 * Which API key a gateway session belongs to. With keys, the first key to use
 * a session id (`x-session-id`, or the session a `previous_response_id`
 * continues) owns it; another key naming it is refused, so a session id is
 * not a bearer token for someone else's session (its exposure, loop history,
 * stored conversation). Kept in the state store, so replicas agree.
 */
import { createHash } from 'node:crypto';
import { ToolSearchError } from '@tool-search/kernel';
import { AuthErrors } from '@tool-search/auth';
import type { StateStore } from '@tool-search/state';

export interface SessionOwners {
  /** Resolves when `keyId` owns (or now claims) the session; throws `AUTH_FORBIDDEN` when another key does, `STATE_UNAVAILABLE` when the store is down. */
  claim(sessionId: string, keyId: string): Promise<void>;
}

/** A session unused this long may be claimed again (24 h). */
export const SESSION_OWNER_TTL_MS = 24 * 60 * 60_000;

export function sessionOwners(state: StateStore, ttlMs = SESSION_OWNER_TTL_MS): SessionOwners {
  return {
    async claim(sessionId, keyId) {
      // A key's main session (`main[:<agent>]@<keyId>`, front.ts) is its own by name: no other key may take it first.
      const named = /^main(?::[^@]+)?@(.+)$/.exec(sessionId)?.[1];
      if (named !== undefined && named !== keyId) throw notYours(keyId);
      // Hashed: a client's session id can be long or odd; the key stays bounded.
      const key = `gateway:session-owner:${createHash('sha256').update(sessionId).digest('hex')}`;
      for (let attempt = 0; attempt < 2; attempt++) {
        if (await state.set(key, keyId, { ttlMs, ifAbsent: true })) return;
        const owner = await state.get(key);
        if (owner === undefined) continue; // expired between the two commands
        if (owner !== keyId) break;
        await state.touch(key, ttlMs);
        return;
      }
      throw notYours(keyId);
    },
  };
}

function notYours(keyId: string): ToolSearchError {
  return new ToolSearchError(
    AuthErrors.AUTH_FORBIDDEN,
    'This session belongs to another API key; start a new session (another x-session-id)',
    { details: { keyId } },
  );
}
