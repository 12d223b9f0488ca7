/** The error codes `@tool-search/plugin-mcp` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const McpErrors = defineErrors('@tool-search/plugin-mcp', {
  MCP_SERVER_FAILED:
    'An MCP server failed to start, initialize or list its tools (crash, timeout, bad output); its tools are missing from the run.',
  MCP_SERVER_STARTING:
    'An MCP server started through a package runner (`npx -y`, `npm exec`, `pnpm dlx`, `bunx`, `uvx`) is still starting after `connectTimeoutMs` (a first run downloads it); it goes on starting, up to `firstStartTimeoutMs`, and its tools join the catalog when it is ready (warning).',
  MCP_SERVER_UNAVAILABLE: 'An MCP server is not connected (it died or was closed); the next run reconnects it.',
  MCP_CALL_FAILED: 'An MCP server answered a tool call with a protocol error (not a tool result with `isError`).',
  MCP_RESULT_TOO_LARGE:
    "An MCP server's answer was over the transport's message size limit; the message names both (and `details` has `size`, `limit`).",
  MCP_LIST_TRUNCATED:
    "An MCP server's tool listing hit `maxToolsPerServer` or `maxListPages`; the tools listed up to there are kept.",
  MCP_AUTH_REQUIRED:
    'An MCP server needs an OAuth login and has no usable token: run `tool-search mcp login <server>`.',
  MCP_RESOURCE_NOT_FOUND:
    'An MCP server has no resource at that URI (2026-07-28: `-32602` with `data.uri`; 2025: `-32002`); `details.uri`.',
  MCP_HEADER_MISMATCH:
    "An MCP server (2026-07-28) refused the request's HTTP headers (`Mcp-Method`, `Mcp-Name`, protocol version) as missing or not matching the body (`-32020`).",
  MCP_CLIENT_CAPABILITY_MISSING:
    'An MCP server (2026-07-28) needs a client capability the request did not declare (`-32021`); `details.requiredCapabilities`.',
  MCP_PROTOCOL_VERSION_UNSUPPORTED:
    'An MCP server does not speak the requested protocol version (`-32022`); `details.supported` lists what it does (pin `protocol` to one).',
  MCP_URL_ELICITATION_REQUIRED:
    'An MCP server (2025-11-25) needs the user to open a URL before the call can go on (`-32042`); `details.elicitations`.',
  MCP_AUTH_FAILED:
    "The OAuth flow with an MCP server's authorization server failed (discovery, registration, token exchange).",
  MCP_SKILLS_LIST_FAILED:
    'An MCP server that declares the Skills extension (SEP-2640) failed to answer `skills/list`; its skills are missing from the run, its tools stay (warning).',
  MCP_SKILL_INVALID:
    'A skill (SEP-2640) was refused: a `skills/list` entry breaks the rules, or a file read does not match its entry (unlisted, size, SHA-256 digest, frontmatter), or the file asked for is outside the skill.',
});
