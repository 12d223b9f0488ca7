/**
 * `tool-search serve mcp`: Tool Search as one MCP server over the configured sources, exposing only the search
 * surface of one mode; stdio by default, Streamable HTTP with `--http PORT`. The preset composes and serves it
 * (`serveMcp`: state, telemetry, elicitation approvals, kernel); this parses flags.
 */
import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import type { McpMode } from '@tool-search/mcp-server';
import { MCP_TOKEN_ENV, SERVE_MCP_MODES } from '@tool-search/preset/serve-mcp-options';
import type { CliIO } from '../io.js';
import { stderrLogger } from '../stderr-logger.js';
import { loadCliConfig, runRequest, withRunOptions, type RunFlags } from '../options.js';
import { cliFrontEndOptions } from '../front-end.js';
import { integer } from './serving.js';

export { MCP_TOKEN_ENV, SERVE_MCP_MODES } from '@tool-search/preset/serve-mcp-options';

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
  withRunOptions(
    serve.command('mcp').description('serve Tool Search as one MCP server (stdio, or Streamable HTTP with --http)'),
  )
    .addOption(
      new Option(
        '--mode <mode>',
        'exposure (default: the toolSearch setting for --agent/--provider/--model, else tools.toolSearch.mode; tools when disabled or direct)',
      ).choices(SERVE_MCP_MODES),
    )
    .option('--http <port>', 'serve Streamable HTTP on this port (0 = a free port) instead of stdio', integer(0, 65535))
    .option('--host <host>', 'HTTP bind address (default 127.0.0.1; any other needs auth.keys or a token)')
    .option('--token <token>', `bearer token HTTP clients must send (default: $${MCP_TOKEN_ENV})`)
    .option('--mcp-config <file>', 'also aggregate the mcpServers of a Claude Desktop / Cursor / .mcp.json file')
    .option(
      '--refresh <ms>',
      'how often to re-list the sources to notice changes (default 10000; 0 = never)',
      integer(0, 86_400_000),
    )
    .action((flags: ServeMcpFlags) => serveMcpCommand(flags, io));
}

async function serveMcpCommand(flags: ServeMcpFlags, io: CliIO): Promise<void> {
  const loaded = await loadCliConfig(flags, io);
  const mcpFile = flags.mcpConfig === undefined ? undefined : resolve(io.cwd, flags.mcpConfig);
  const { loadMcpServersFile, withMcpServers } = await import('@tool-search/config');
  const config = mcpFile ? withMcpServers(loaded.config, await loadMcpServersFile(mcpFile), mcpFile) : loaded.config;
  const { serveMcp } = await import('@tool-search/preset');
  const { http, host, token, refresh, mode } = flags;
  const logger = stderrLogger(io);
  await serveMcp({
    ...cliFrontEndOptions(io),
    config,
    request: await runRequest(flags, io),
    mode,
    http,
    host,
    token,
    refresh,
    logger,
    log: (line) => void io.stderr.write(`${line}\n`),
    signal: io.signal,
  });
}
