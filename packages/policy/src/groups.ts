/** Profiles and sandbox defaults: the policy's base allowlists, written with the shared groups. */
import type { ProfileName } from './types.js';

/** Base allowlists. `full` keeps everything (same as no profile). */
export const PROFILES: Readonly<Record<ProfileName, readonly string[]>> = Object.freeze({
  minimal: Object.freeze(['session_status']),
  coding: Object.freeze(['group:fs', 'group:runtime', 'group:sessions', 'group:memory', 'image']),
  messaging: Object.freeze(['group:messaging', 'sessions_list', 'sessions_history', 'sessions_send', 'session_status']),
  full: Object.freeze(['*']),
});

/** What a sandboxed run gets when no sandbox tool policy (or field) is configured. */
export const SANDBOX_DEFAULTS = Object.freeze({
  allow: Object.freeze(['group:fs', 'group:runtime', 'group:sessions', 'image']),
  deny: Object.freeze(['group:ui', 'nodes', 'group:automation', 'group:messaging']),
});

export function isProfileName(name: unknown): name is ProfileName {
  return typeof name === 'string' && Object.hasOwn(PROFILES, name);
}
