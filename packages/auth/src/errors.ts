import { defineErrors } from '@tool-search/kernel/errors';

/** The codes `@tool-search/auth` raises; the front ends answer them with 401 / 403. */
export const AuthErrors = defineErrors('@tool-search/auth', {
  AUTH_REQUIRED:
    'The request carries no API key (Authorization: Bearer <key>, or x-api-key) and this server requires one (HTTP 401).',
  AUTH_INVALID: 'The API key the request carries matches none of the configured keys (HTTP 401).',
  AUTH_FORBIDDEN:
    'The API key is valid but may not act as the agent it asked for (x-agent-id), or may not use the MCP session it named (HTTP 403).',
  AUTH_NOT_LOOPBACK:
    "A keyless (loopback) server refused a web page's request: its Host is not a loopback name (DNS rebinding) or its Origin is not a loopback origin (cross-site); `details.header` says which (HTTP 403).",
  AUTH_OTHER_USER:
    'A keyless (loopback) server refused a connection from another local user: only its own user (and root) may use it without a key; `details.uid` is the client process owner (HTTP 403).',
  AUTH_KEY_INVALID:
    'An auth.keys entry cannot be used: a hash not of the form sha256:<64 hex digits>, an env variable that is unset or empty, or no agents.',
});
