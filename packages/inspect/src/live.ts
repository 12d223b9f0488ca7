/**
 * The live view's feed: MCP servers' state from the preset (`preset.mcpServers`), and a change signal the composer
 * fires from the preset's `onMcpToolsChanged`, so the page re-reads when a server's tool list changes.
 */
import type { InspectLive } from './server.js';
import type { LiveServer } from './types.js';

/** What the preset reports per server (`McpServerStatus` of @tool-search/plugin-mcp, structurally). */
export interface McpStatusLike {
  readonly name: string;
  readonly state: string;
  readonly transport?: string;
  readonly protocolVersion?: string;
  readonly toolCount?: number;
  readonly lastError?: { readonly code: string; readonly message: string };
}

export interface LiveFeed extends InspectLive {
  /** Tell the page a server's tools changed (wire it to the preset's `onMcpToolsChanged`). */
  notify(server: string): void;
  /** Where the server states come from; set once the preset is built. */
  source(servers: (() => readonly McpStatusLike[]) | undefined): void;
}

export function createLiveFeed(): LiveFeed {
  const listeners = new Set<() => void>();
  let read: (() => readonly McpStatusLike[]) | undefined;
  return {
    servers: () => (read?.() ?? []).map(liveServer),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify() {
      for (const listener of listeners) listener();
    },
    source(servers) {
      read = servers;
    },
  };
}

function liveServer(status: McpStatusLike): LiveServer {
  // An auth failure is its own state on the page: the fix is `tool-search mcp login <server>`, not a restart.
  const state =
    status.state === 'failed' && status.lastError?.code === 'MCP_AUTH_REQUIRED' ? 'auth-required' : status.state;
  return {
    name: status.name,
    state,
    ...(status.transport ? { transport: status.transport } : {}),
    ...(status.protocolVersion ? { protocolVersion: status.protocolVersion } : {}),
    ...(status.toolCount !== undefined ? { toolCount: status.toolCount } : {}),
    ...(status.lastError ? { error: { code: status.lastError.code, message: status.lastError.message } } : {}),
  };
}
