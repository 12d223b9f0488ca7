/**
 * The state folder, alone: callers that only need where state lives (the preset's cron folder) import
 * `@tool-search/plugin-mcp/state-dir` and leave the MCP SDK unloaded.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The state folder: `$TOOL_SEARCH_STATE_DIR`, else `$XDG_STATE_HOME/tool-search`, else `~/.local/state/tool-search`. */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOOL_SEARCH_STATE_DIR) return env.TOOL_SEARCH_STATE_DIR;
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'tool-search');
}
