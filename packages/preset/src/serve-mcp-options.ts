/**
 * The constants of `serve mcp`'s flags, alone (`@tool-search/preset/serve-mcp-options`): a CLI lists them in its help
 * without loading the preset.
 */
import type { McpMode } from '@tool-search/mcp-server';

/** Read when no `token` is given, so the token need not appear in a process list. */
export const MCP_TOKEN_ENV = 'TOOL_SEARCH_MCP_TOKEN';
/** The modes an MCP server exposes (direct would hand the client every tool: it lists them itself). */
export const SERVE_MCP_MODES = ['tools', 'code', 'directory'] as const satisfies readonly McpMode[];
