/**
 * API key hashes. A key is stored as `sha256:<64 hex>` of the key: the keys
 * `generateApiKey` makes carry 256 random bits, so a slow password hash
 * (scrypt, argon2) would add nothing an attacker can feel but would cost
 * every request a deliberate ~50 ms of CPU; keys shorter than
 * MIN_KEY_LENGTH are refused for the same reason.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ToolSearchError } from '@tool-search/kernel';
import { AuthErrors } from './errors.js';

/** Shortest plain key accepted (hashed or from an env variable): short keys could be guessed from their hash. */
export const MIN_KEY_LENGTH = 16;
const HASH = /^sha256:([0-9a-f]{64})$/;

/** `sha256:<hex>` of a plain key, the form `auth.keys[].hash` takes. */
export function hashApiKey(key: string): string {
  if (key.length < MIN_KEY_LENGTH) {
    throw new ToolSearchError(
      AuthErrors.AUTH_KEY_INVALID,
      `An API key must be at least ${MIN_KEY_LENGTH} characters; generate one with \`tool-search auth hash-key\``,
      {
        details: { length: key.length },
      },
    );
  }
  return `sha256:${digestOf(key).toString('hex')}`;
}

/** A new random key (`tsk_` + 43 base64url characters = 256 bits). */
export function generateApiKey(): string {
  return `tsk_${randomBytes(32).toString('base64url')}`;
}

/** The 32-byte digest a stored hash names, or undefined when it is not `sha256:<64 lowercase hex>`. */
export function parseHash(hash: string): Buffer | undefined {
  const hex = HASH.exec(hash.trim().toLowerCase())?.[1];
  return hex ? Buffer.from(hex, 'hex') : undefined;
}

export function digestOf(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
