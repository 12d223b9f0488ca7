/**
 * API keys that map to agents. A request's key (`Authorization: Bearer <key>`
 * or `x-api-key: <key>`) is hashed and compared in constant time with every
 * configured hash (no early exit, so timing does not say which key nearly
 * matched). The key decides the agent: `x-agent-id` may only pick among the
 * agents that key allows (`"*"`: any).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ToolSearchError } from '@tool-search/kernel';
import { AuthErrors } from './errors.js';
import { digestOf, MIN_KEY_LENGTH, parseHash } from './hash.js';

/** One `auth.keys[]` entry: the key's hash, or the env variable holding the plain key at start-up. */
export interface ApiKeyConfig {
  /** A name for logs and for binding sessions (default: derived from the hash). */
  readonly name?: string;
  /** `sha256:<64 hex>` (`tool-search auth hash-key`). */
  readonly hash?: string;
  /** Env variable holding the plain key; read once at start-up, kept only as its hash. */
  readonly env?: string;
  /** Agent ids this key may act as; the first is used when the request names none. `"*"`: any agent. */
  readonly agents: readonly string[];
}

export interface AuthConfig {
  readonly keys?: readonly ApiKeyConfig[];
}

/** Who a request is: the key it carried. */
export interface Principal {
  /** Stable across replicas with the same config (the name, else derived from the hash); never the key. */
  readonly keyId: string;
  readonly agents: readonly string[];
}

export interface ApiKeys {
  /** Number of keys; 0 = keyless (every request is let through as no principal). */
  readonly size: number;
  /** The principal of a request; throws `AUTH_REQUIRED` (no key) or `AUTH_INVALID` (no match). Undefined when keyless. */
  authenticate(headers: IncomingHttpHeaders): Principal | undefined;
  /**
   * The agent a request runs as: `requested` (x-agent-id) when the key allows it (`AUTH_FORBIDDEN` otherwise),
   * else `fallback` when allowed, else the key's first agent. Keyless (no principal): `requested ?? fallback`.
   */
  agentFor(principal: Principal | undefined, requested: string | undefined, fallback?: string): string | undefined;
  /** These keys plus one more plain key (a legacy bearer token), allowed `agents` (default any). */
  withPlainKey(key: string, name: string, agents?: readonly string[]): ApiKeys;
}

interface StoredKey extends Principal {
  readonly digest: Buffer;
}

/** Builds the key set from `auth` config; `env` supplies `auth.keys[].env` values. Throws `AUTH_KEY_INVALID` for a bad entry. */
export function createApiKeys(config: AuthConfig | undefined, env: NodeJS.ProcessEnv = process.env): ApiKeys {
  return keySet((config?.keys ?? []).map((entry, index) => stored(entry, index, env)));
}

/** The key a request carries: `Authorization: Bearer <key>` first, else `x-api-key`. */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization;
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(.+)$/i.exec(authorization.trim())?.[1] : undefined;
  if (bearer) return bearer;
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey ? apiKey.trim() : undefined;
}

function keySet(keys: readonly StoredKey[]): ApiKeys {
  return {
    size: keys.length,
    authenticate(headers) {
      if (keys.length === 0) return undefined;
      const key = presentedKey(headers);
      if (!key)
        throw new ToolSearchError(
          AuthErrors.AUTH_REQUIRED,
          'An API key is required: send Authorization: Bearer <key> (or x-api-key: <key>)',
        );
      const digest = digestOf(key);
      let found: StoredKey | undefined;
      for (const candidate of keys) if (timingSafeEqual(digest, candidate.digest) && !found) found = candidate;
      if (!found) throw new ToolSearchError(AuthErrors.AUTH_INVALID, 'The API key is not valid here');
      return { keyId: found.keyId, agents: found.agents };
    },
    agentFor(principal, requested, fallback) {
      if (!principal) return requested ?? fallback;
      const any = principal.agents.includes('*');
      const allows = (agent: string) => any || principal.agents.includes(agent);
      if (requested !== undefined) {
        if (allows(requested)) return requested;
        throw new ToolSearchError(
          AuthErrors.AUTH_FORBIDDEN,
          `This API key may not act as agent "${requested}"; it allows ${principal.agents.map((a) => JSON.stringify(a)).join(', ')}`,
          {
            details: { agent: requested, keyId: principal.keyId },
          },
        );
      }
      if (fallback !== undefined && allows(fallback)) return fallback;
      return principal.agents.find((agent) => agent !== '*');
    },
    withPlainKey(key, name, agents = ['*']) {
      // A legacy token (gateway.auth.token, --token) keeps working whatever its length: it was accepted before keys.
      return keySet([...keys, { keyId: name, agents: [...agents], digest: digestOf(key) }]);
    },
  };
}

function stored(entry: ApiKeyConfig, index: number, env: NodeJS.ProcessEnv): StoredKey {
  const where = `auth.keys[${index}]`;
  const invalid = (message: string) =>
    new ToolSearchError(AuthErrors.AUTH_KEY_INVALID, `${where}: ${message}`, { details: { index } });
  if (
    !Array.isArray(entry.agents) ||
    entry.agents.length === 0 ||
    entry.agents.some((a) => typeof a !== 'string' || a === '')
  ) {
    throw invalid('list the agent ids this key may act as in "agents" (["*"] for any)');
  }
  if ((entry.hash === undefined) === (entry.env === undefined))
    throw invalid('give exactly one of "hash" (sha256:<hex>, from `tool-search auth hash-key`) or "env"');
  let digest: Buffer | undefined;
  if (entry.hash !== undefined) {
    digest = parseHash(entry.hash);
    if (!digest) throw invalid('"hash" must be sha256:<64 hex digits>; make one with `tool-search auth hash-key`');
  } else {
    const plain = env[entry.env!];
    if (!plain) throw invalid(`the env variable ${entry.env} is unset or empty`);
    if (plain.length < MIN_KEY_LENGTH) throw tooShort(where, plain.length);
    digest = digestOf(plain);
  }
  // The id goes into shared session records: derived from the digest by another hash, so it cannot be checked against guesses.
  const keyId =
    entry.name ?? `key-${createHash('sha256').update('tool-search:key-id:').update(digest).digest('hex').slice(0, 16)}`;
  return { keyId, agents: [...entry.agents], digest };
}

function tooShort(where: string, length: number): ToolSearchError {
  return new ToolSearchError(
    AuthErrors.AUTH_KEY_INVALID,
    `${where}: an API key must be at least ${MIN_KEY_LENGTH} characters (got ${length})`,
    { details: { length } },
  );
}
