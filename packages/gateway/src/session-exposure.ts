/**
 * Prompt-cache stability: within a session the tools and system text sent to
 * the provider stay byte-identical unless the catalog changed. Each turn's
 * exposure is fingerprinted; sessions remember only the fingerprint, and the
 * serialized texts are shared by fingerprint (a thousand sessions over the same
 * catalog hold one copy of its tools, not a thousand). A changed fingerprint
 * is reported so the session log marks the request. Both maps are bounded.
 */
import { createHash } from 'node:crypto';

export interface SessionExposure {
  readonly toolsJson: string;
  readonly system: string;
  readonly fingerprint: string;
  /** The fingerprint this session had before, when it changed on this turn. */
  readonly changedFrom?: string;
}

export class SessionExposures {
  private readonly sessions = new Map<string, string>();
  private readonly texts = new Map<string, { toolsJson: string; system: string }>();

  constructor(
    private readonly maxSessions = 10_000,
    private readonly maxTexts = 16,
  ) {}

  settle(sessionId: string, key: string, toolsJson: string, system: string): SessionExposure {
    const fingerprint = createHash('sha256')
      .update(key)
      .update('\0')
      .update(toolsJson)
      .update('\0')
      .update(system)
      .digest('hex')
      .slice(0, 16);
    const shared = touch(this.texts, fingerprint, () => ({ toolsJson, system }), this.maxTexts);
    const previous = this.sessions.get(sessionId);
    touch(this.sessions, sessionId, () => fingerprint, this.maxSessions);
    this.sessions.set(sessionId, fingerprint);
    return {
      ...shared,
      fingerprint,
      ...(previous !== undefined && previous !== fingerprint ? { changedFrom: previous } : {}),
    };
  }
}

/** Gets or creates `key`, moving it to the newest end; drops the oldest past `max`. */
function touch<V>(map: Map<string, V>, key: string, create: () => V, max: number): V {
  const value = map.get(key) ?? create();
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as string);
  return value;
}
