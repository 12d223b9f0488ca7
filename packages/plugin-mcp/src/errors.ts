/** The error codes `@tool-search/plugin-mcp` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel';

export const McpErrors = defineErrors('@tool-search/plugin-mcp', {
  MCP_SERVER_FAILED: 'An MCP server failed to start, initialize or list its tools (crash, timeout, bad output); its tools are missing from the run.',
  MCP_SERVER_UNAVAILABLE: 'An MCP server is not connected (it died or was closed); the next run reconnects it.',
  MCP_CALL_FAILED: 'An MCP server answered a tool call with a protocol error (not a tool result with `isError`).',
  MCP_RESULT_TOO_LARGE: 'An MCP server\'s answer was over the transport\'s message size limit; the message names both (and `details` has `size`, `limit`).',
  MCP_LIST_TRUNCATED: 'An MCP server\'s tool listing hit `maxToolsPerServer` or `maxListPages`; the tools listed up to there are kept.',
  MCP_AUTH_REQUIRED: 'An MCP server needs an OAuth login and has no usable token: run `tool-search mcp login <server>`.',
  MCP_AUTH_FAILED: 'The OAuth flow with an MCP server\'s authorization server failed (discovery, registration, token exchange).',
});
