/**
 * The `mcpServers` object of Claude Desktop, Cursor and `.mcp.json` files,
 * accepted verbatim next to `mcp.servers` (and read from such a file by
 * `serve mcp --mcp-config`). Each entry is normalized to the one server
 * config plugin-mcp takes; `type` only has to agree with the fields.
 */
import { readFile } from 'node:fs/promises';
import { parseJson5 } from './json5.js';
import { ConfigError, ErrorCode, errorMessage } from '@tool-search/kernel';
import type { McpServersEntry } from './mcp-servers-schema.js';
import type { McpServerConfig, ToolSearchConfig } from './types.js';
import { validateConfig } from './validate.js';

/**
 * Every configured server: `mcp.servers` and `mcpServers` together; one name in both is a `CONFIG_INVALID` error.
 * The connection settings only: `alwaysVisible` (what the model sees, not how to connect) is read by `mcpPinsOf`.
 */
export function mcpServersOf(config: Pick<ToolSearchConfig, 'mcp' | 'mcpServers'>): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  for (const [name, server] of Object.entries(config.mcp?.servers ?? {})) {
    const { alwaysVisible: _pins, ...connection } = server;
    out[name] = connection as McpServerConfig;
  }
  for (const [name, entry] of Object.entries(config.mcpServers ?? {})) {
    if (name in out) {
      throw new ConfigError(
        `/mcpServers/${name}`,
        'unique',
        `MCP server "${name}" is configured in both mcp.servers and mcpServers; keep one of them`,
        {
          details: { server: name },
        },
      );
    }
    out[name] = fromEntry(entry);
  }
  return out;
}

/** `mcp.servers.<name>.alwaysVisible` of every server that pins something: `true` (all its tools) or its tool names. */
export function mcpPinsOf(config: Pick<ToolSearchConfig, 'mcp'>): Record<string, true | string[]> {
  const out: Record<string, true | string[]> = {};
  for (const [name, server] of Object.entries(config.mcp?.servers ?? {})) {
    if (server.alwaysVisible === true) out[name] = true;
    else if (Array.isArray(server.alwaysVisible) && server.alwaysVisible.length) out[name] = [...server.alwaysVisible];
  }
  return out;
}

/** The config with `servers` (e.g. from `loadMcpServersFile`) added to its `mcpServers`; a name it already has is `CONFIG_INVALID` (rule `unique`). */
export function withMcpServers<T extends Pick<ToolSearchConfig, 'mcpServers'>>(
  config: T,
  servers: Record<string, McpServersEntry>,
  source: string,
): T {
  for (const name of Object.keys(servers)) {
    if (config.mcpServers && name in config.mcpServers) {
      throw new ConfigError(
        `/mcpServers/${name}`,
        'unique',
        `MCP server "${name}" from ${source} is already in the config's mcpServers; rename one of them`,
        {
          details: { server: name, source },
        },
      );
    }
  }
  return { ...config, mcpServers: { ...config.mcpServers, ...servers } };
}

/**
 * Reads the `mcpServers` of a Claude Desktop / Cursor / `.mcp.json` file (JSON5;
 * its other keys are not ours and are ignored). `CONFIG_UNREADABLE` when the
 * file cannot be read or parsed, `CONFIG_INVALID` (path `/mcpServers/…`) otherwise.
 */
export async function loadMcpServersFile(file: string): Promise<Record<string, McpServersEntry>> {
  let value: unknown;
  try {
    value = parseJson5(await readFile(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      '/',
      code ? 'readable' : 'syntax',
      `Cannot read MCP config file ${file}: ${errorMessage(error)}`,
      {
        code: ErrorCode.CONFIG_UNREADABLE,
        cause: error,
        details: { source: file },
      },
    );
  }
  const servers =
    typeof value === 'object' && value !== null ? (value as { mcpServers?: unknown }).mcpServers : undefined;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new ConfigError(
      '/mcpServers',
      'required',
      `MCP config file ${file} has no "mcpServers" object (the Claude Desktop / Cursor / .mcp.json format)`,
      {
        details: { source: file },
      },
    );
  }
  return validateConfig({ mcpServers: servers }, file).mcpServers ?? {};
}

function fromEntry(entry: McpServersEntry): McpServerConfig {
  if (entry.command !== undefined) {
    return {
      command: entry.command,
      ...(entry.args ? { args: entry.args } : {}),
      ...(entry.env ? { env: entry.env } : {}),
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
    };
  }
  // `sse` servers are reached through plugin-mcp's Streamable HTTP → HTTP+SSE fallback.
  return { url: entry.url!, ...(entry.headers ? { headers: entry.headers } : {}) };
}
