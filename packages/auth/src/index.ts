// The public surface of @tool-search/auth: named exports only.
export { AuthErrors } from './errors.js';
export { createApiKeys, presentedKey } from './keys.js';
export type { ApiKeyConfig, ApiKeys, AuthConfig, Principal } from './keys.js';
export { generateApiKey, hashApiKey, MIN_KEY_LENGTH } from './hash.js';
export { authStatus } from './status.js';
export { assertLoopbackRequest, foreignBrowserHeader, isLoopbackHost } from './loopback.js';
export { assertSameLocalUser, loopbackPeerUid } from './local-user.js';
export type { ConnectionEnds } from './local-user.js';
