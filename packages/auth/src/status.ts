import { ToolSearchError } from '@tool-search/kernel';
import { AuthErrors } from './errors.js';

/** The HTTP status of an auth error (401 no/wrong key, 403 not allowed), undefined for any other error. */
export function authStatus(error: unknown): 401 | 403 | undefined {
  if (!ToolSearchError.isInstance(error)) return undefined;
  if (error.code === AuthErrors.AUTH_REQUIRED || error.code === AuthErrors.AUTH_INVALID) return 401;
  if (
    error.code === AuthErrors.AUTH_FORBIDDEN ||
    error.code === AuthErrors.AUTH_NOT_LOOPBACK ||
    error.code === AuthErrors.AUTH_OTHER_USER
  )
    return 403;
  return undefined;
}
