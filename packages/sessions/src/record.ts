/**
 * What every `SessionStore` does alike to what it keeps: a patch merged into
 * a session's record (a new session's defaults first), and a transcript
 * entry cut to the store's longest text.
 */
import { DEFAULT_AGENT_ID, sessionKey, type SessionPatch, type SessionRecord, type TranscriptEntry } from './types.js';

/** The record after `patch`; `messageCount` is the store's own (it counts appends). */
export function patchedRecord(
  sessionId: string,
  before: Omit<SessionRecord, 'messageCount'> | undefined,
  patch: SessionPatch,
  now: number,
): Omit<SessionRecord, 'messageCount'> {
  if (before) {
    const agentId = patch.agentId ?? before.agentId;
    const { model: _cleared, ...kept } = before;
    return {
      ...(patch.model === null ? kept : before),
      ...defined(patch),
      agentId,
      key: sessionKey(agentId, sessionId),
      updatedAt: now,
    };
  }
  const agentId = patch.agentId ?? DEFAULT_AGENT_ID;
  return {
    kind: 'main',
    status: 'idle',
    turns: 0,
    usage: { input: 0, output: 0 },
    ...defined(patch),
    agentId,
    key: sessionKey(agentId, sessionId),
    sessionId,
    createdAt: now,
    updatedAt: now,
  };
}

/** The entry with its text cut to `maxChars` (an ellipsis marks the cut). */
export function keptEntry(entry: TranscriptEntry, maxChars: number): TranscriptEntry {
  return entry.content !== null && entry.content.length > maxChars
    ? { ...entry, content: `${entry.content.slice(0, maxChars)}…` }
    : { ...entry };
}

/** The patch without its `undefined` fields (they keep the stored value) and `null`s (cleared above). */
function defined(patch: SessionPatch): Partial<Omit<SessionRecord, 'messageCount'>> {
  return Object.fromEntries(
    Object.entries(patch).filter(([, value]) => value !== undefined && value !== null),
  ) as Partial<Omit<SessionRecord, 'messageCount'>>;
}
