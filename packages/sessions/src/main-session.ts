/**
 * OpenClaw's main session: one direct-chat session per agent, keyed `agent:<agentId>:main`, which a gateway request
 * without `x-session-id` lands in and the session tools' literal `sessionKey: "main"` names. Its session id is `main`
 * for the gateway's default agent and `main:<agentId>` for another (ids are one space across agents); behind API keys
 * each key has its own (`…@<keyId>`, OpenClaw's per-peer isolation), so one key never reads another's conversation.
 * The gateway builds the same ids without importing this package (`packages/gateway/src/front/front.ts`).
 */

/** The literal session key the session tools take for the caller's main session. */
export const MAIN_SESSION_KEY = 'main';

const MAIN_ID = /^main(?::([^@]+))?(?:@(.+))?$/;

/** The session id of `agentId`'s main session (undefined: the gateway's default agent), owned by `keyId` when given. */
export function mainSessionId(agentId?: string, keyId?: string): string {
  return `main${agentId ? `:${agentId}` : ''}${keyId ? `@${keyId}` : ''}`;
}

/** Whether `sessionId` is a main session's id; `agentId` (undefined: any) and `keyId` (from the id) when it is. */
export function parseMainSessionId(sessionId: string): { agentId?: string; keyId?: string } | undefined {
  const match = MAIN_ID.exec(sessionId);
  if (!match) return undefined;
  return { ...(match[1] ? { agentId: match[1] } : {}), ...(match[2] ? { keyId: match[2] } : {}) };
}

/** The key's tail for a session id: `main[@<keyId>]` for a main session of `agentId`, else the id itself. */
export function keyTail(agentId: string, sessionId: string): string {
  const main = parseMainSessionId(sessionId);
  if (!main || (main.agentId !== undefined && main.agentId !== agentId)) return sessionId;
  return `main${main.keyId ? `@${main.keyId}` : ''}`;
}

/**
 * The session ids a key may name: `agent:<a>:main[@<k>]` is `main:<a>[@<k>]`, or `main[@<k>]` when `a` is the
 * default agent; any other `agent:<a>:<id>` is `<id>`. The caller checks the record's key (it names the agent).
 */
export function sessionIdsOfKey(key: string, defaultAgentId: string): string[] {
  const match = /^agent:([^:]+):(.+)$/.exec(key);
  if (!match) return [];
  const [, agentId, tail] = match as unknown as [string, string, string];
  const main = /^main(?:@(.+))?$/.exec(tail);
  if (!main) return [tail];
  const keyId = main[1];
  return [mainSessionId(agentId, keyId), ...(agentId === defaultAgentId ? [mainSessionId(undefined, keyId)] : [])];
}
