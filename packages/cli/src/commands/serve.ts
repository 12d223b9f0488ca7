/**
 * `tool-search serve mcp`: Tool Search as one MCP server over the configured sources, exposing only the search
 * surface of one mode; stdio by default, Streamable HTTP with `--http PORT` (see ../mcp-serving.ts). The preset
 * composes the front end (state, telemetry, kernel); this parses flags.
 */
import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { loadMcpServersFile, withMcpServers } from '@tool-search/config';
import type { McpMode } from '@tool-search/mcp-server';
import type { CliIO } from '../io.js';
import { appliedToolSearch, runSettingOf } from '../tool-search-setting.js';
import { loadCliConfig, runRequest, withRunOptions, type RunFlags } from '../options.js';
import { createCliFrontEnd } from '../front-end.js';
import { consoleToStderr, MCP_TOKEN_ENV, serveOverMcp, stderrLogger } from '../mcp-serving.js';
import { integer } from './serving.js';

export { MCP_TOKEN_ENV } from '../mcp-serving.js';

export const SERVE_MCP_MODES = ['tools', 'code', 'directory'] as const satisfies readonly McpMode[];

interface ServeMcpFlags extends RunFlags {
  readonly mode?: McpMode;
  readonly http?: number;
  readonly host?: string;
  readonly token?: string;
  readonly refresh?: number;
  readonly mcpConfig?: string;
}

export function registerServeCommands(program: Command, io: CliIO): void {
  const serve = program.command('serve').description('serve Tool Search to other programs');
  withRunOptions(serve.command('mcp').description('serve Tool Search as one MCP server (stdio, or Streamable HTTP with --http)'))
    .addOption(new Option('--mode <mode>', 'exposure (default: the toolSearch setting for --agent/--provider/--model, else tools.toolSearch.mode; tools when disabled or direct)').choices(SERVE_MCP_MODES))
    .option('--http <port>', 'serve Streamable HTTP on this port (0 = a free port) instead of stdio', integer(0, 65535))
    .option('--host <host>', 'HTTP bind address (default 127.0.0.1; any other needs auth.keys or a token)')
    .option('--token <token>', `bearer token HTTP clients must send (default: $${MCP_TOKEN_ENV})`)
    .option('--mcp-config <file>', 'also aggregate the mcpServers of a Claude Desktop / Cursor / .mcp.json file')
    .option('--refresh <ms>', 'how often to re-list the sources to notice changes (default 10000; 0 = never)', integer(0, 86_400_000))
    .action((flags: ServeMcpFlags) => serveMcp(flags, io));
}

async function serveMcp(flags: ServeMcpFlags, io: CliIO): Promise<void> {
  const loaded = await loadCliConfig(flags, io);
  const mcpFile = flags.mcpConfig === undefined ? undefined : resolve(io.cwd, flags.mcpConfig);
  const config = mcpFile ? withMcpServers(loaded.config, await loadMcpServersFile(mcpFile), mcpFile) : loaded.config;
  const asked = await runRequest(flags, io);
  const applied = appliedToolSearch(config, asked);
  // The search limits of this run's toolSearch setting travel in the request (the modes read them).
  const request = { ...asked, ...runSettingOf(applied) };
  const logger = stderrLogger(io);
  // Approvals go to the MCP client's user (elicitation), never to a terminal prompt (stdin is the MCP pipe); else deny.
  const approvals = (await import('@tool-search/mcp-server')).elicitationApprovals();
  // A downstream `list_changed` re-lists at once instead of waiting for the refresh timer.
  const listeners = new Set<() => void>();
  const onCatalogChange = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  // The preset composes state (Redis with `state.redis.url`: replicas of `serve mcp --http` share sessions and guards), telemetry and the kernel.
  const front = await createCliFrontEnd(config, io, { approvals: approvals.approve, logger, onMcpToolsChanged: () => listeners.forEach((listener) => listener()) });
  // The toolSearch setting of this run's agent and provider/model (tools.toolSearch when none overrides it).
  const setting = applied.resolved;
  const mode: McpMode = flags.mode ?? (SERVE_MCP_MODES.find((m) => m === setting.mode && setting.enabled) ?? 'tools');
  const restoreConsole = flags.http === undefined ? consoleToStderr() : () => undefined; // stdio: stdout is the protocol
  try {
    await serveOverMcp(front, io, { config, mode, request, logger, approvals, onCatalogChange, http: flags.http, host: flags.host, token: flags.token, refresh: flags.refresh });
  } finally {
    await front.close(); // the servers, the kernel (downstream server processes end), the state store, the exporter
    restoreConsole();
  }
}
