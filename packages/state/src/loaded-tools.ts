/**
 * The tools a conversation has loaded (found by a search, or loaded by a call), kept in the state store under the
 * conversation's id, so a run that resumes it (a new process, another replica, a replayed workflow) offers the same
 * set without searching again. Only names: whoever reads them offers each one only if the run's policy still allows
 * it. Bounded (the oldest loads drop past `maxTools`) and kept `ttlMs` after the last load.
 */
import { createHash } from 'node:crypto';
import type { StateStore } from './types.js';

export interface LoadedToolsOptions {
  /** Names kept per conversation (default 64): the earliest loads drop first. */
  readonly maxTools?: number;
  /** How long a conversation's record lives after its last load (default 24 h). */
  readonly ttlMs?: number;
}

export interface LoadedTools {
  /** The names the conversation loaded, in load order (empty for an unknown conversation). */
  read(conversationId: string): Promise<string[]>;
  /** Adds names (those already there keep their place); returns the whole set. Writes only when something is new. */
  add(conversationId: string, names: readonly string[]): Promise<string[]>;
}

export const LOADED_TOOLS_PREFIX = 'loaded-tools:';
export const DEFAULT_LOADED_TOOLS_TTL_MS = 24 * 60 * 60_000;
export const DEFAULT_MAX_LOADED_TOOLS = 64;
/** A tool name longer than this is no provider's: it is not stored. */
const MAX_NAME_LENGTH = 256;

export function loadedTools(state: StateStore, options: LoadedToolsOptions = {}): LoadedTools {
  const maxTools = options.maxTools ?? DEFAULT_MAX_LOADED_TOOLS;
  const ttlMs = options.ttlMs ?? DEFAULT_LOADED_TOOLS_TTL_MS;
  // Hashed: a conversation id comes from a client and may be long or odd; the key stays bounded.
  const keyOf = (id: string) => `${LOADED_TOOLS_PREFIX}${createHash('sha256').update(id).digest('hex')}`;
  async function read(conversationId: string): Promise<string[]> {
    return parse(await state.get(keyOf(conversationId)));
  }
  return {
    read,
    async add(conversationId, names) {
      const known = await read(conversationId);
      const fresh = [...new Set(names)].filter((name) => name.length <= MAX_NAME_LENGTH && !known.includes(name));
      if (!fresh.length) return known;
      const all = [...known, ...fresh].slice(-maxTools);
      await state.set(keyOf(conversationId), JSON.stringify(all), { ttlMs });
      return all;
    },
  };
}

/** A stored record; anything else (another writer's garbage) reads as empty. */
function parse(text: string | undefined): string[] {
  if (text === undefined) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}
