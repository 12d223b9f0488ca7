/**
 * `tool-search serve mcp`: Tool Search as one MCP server over the configured
 * sources, exposing only the search surface of one mode. stdio by default
 * (stdout is the protocol: everything else goes to stderr), Streamable HTTP
 * with `--http PORT`. Runs until the client closes stdin (stdio), SIGINT,
 * SIGTERM or `io.signal`; closing the kernel ends downstream server processes.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { loadMcpServersFile, withMcpServers } from '@tool-search/config';
import { ToolSearchError, type Diagnostic, type Logger } from '@tool-search/kernel';
import type { McpMode } from '@tool-search/mcp-server';
import type { CliIO } from '../io.js';
import { appliedToolSearch, runSettingOf } from '../tool-search-setting.js';
import { createCliKernel, loadCliConfig, runRequest, withRunOptions, type RunFlags } from '../options.js';
import { createCliState } from '../state.js';
import { startCliOtel } from '../otel.js';
import { GatewayErrors } from '@tool-search/gateway';

export const SERVE_MCP_MODES = ['tools', 'code', 'directory'] as const satisfies readonly McpMode[];
/** Read when `--token` is not given, so the token need not appear in a process list. */
export const MCP_TOKEN_ENV = 'TOOL_SEARCH_MCP_TOKEN';

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
    .action(async (flags: ServeMcpFlags) => {
      await serveMcp(flags, io);
    });
}

async function serveMcp(flags: ServeMcpFlags, io: CliIO): Promise<void> {
  const loaded = await loadCliConfig(flags, io);
  const mcpFile = flags.mcpConfig === undefined ? undefined : resolve(io.cwd, flags.mcpConfig);
  const config = mcpFile ? withMcpServers(loaded.config, await loadMcpServersFile(mcpFile), mcpFile) : loaded.config;
  const asked = await runRequest(flags, io);
  const applied = appliedToolSearch(config, asked);
  // The search limits of this run's toolSearch setting travel in the request (the modes read them).
  const request = { ...asked, ...runSettingOf(applied) };
  const { elicitationApprovals, serveHttp, serveStdio } = await import('@tool-search/mcp-server');
  const logger = stderrLogger(io);
  // Approvals go to the MCP client's user (elicitation), never to a terminal prompt: stdin is the MCP pipe in stdio mode.
  // A client that cannot be asked gets a deny.
  const approvals = elicitationApprovals();
  // A downstream `list_changed` re-lists at once instead of waiting for the refresh timer.
  const listeners = new Set<() => void>();
  const onCatalogChange = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  // Shared state (Redis with `state.redis.url`): replicas of `serve mcp --http` share sessions and guards through it.
  const state = await createCliState(config, io);
  const otel = await startCliOtel(config, state.replicaId); // telemetry.otlp: before the kernel, shut down last
  const { kernel, mcpDownstream } = await createCliKernel(config, io, {
    state,
    approve: approvals.approve,
    logger,
    onMcpToolsChanged: () => listeners.forEach((listener) => listener()),
  }).catch(async (error: unknown) => {
    await state.close();
    throw error;
  });
  // The toolSearch setting of this run's agent and provider/model (tools.toolSearch when none overrides it).
  const setting = applied.resolved;
  const mode: McpMode = flags.mode ?? (SERVE_MCP_MODES.find((m) => m === setting.mode && setting.enabled) ?? 'tools');
  const options = { kernel, mode, request, logger, approvals, onCatalogChange, ...(mcpDownstream ? { downstream: mcpDownstream } : {}), ...(flags.refresh !== undefined ? { refreshIntervalMs: flags.refresh } : {}) };
  const restoreConsole = flags.http === undefined ? consoleToStderr() : () => undefined;
  let close: () => Promise<void> = async () => undefined;
  try {
    if (flags.http === undefined) {
      const handle = await serveStdio(options);
      close = () => handle.close();
      printDiagnostics(io, handle.diagnostics());
      io.stderr.write(`tool-search: MCP server on stdio, mode ${handle.exposure().mode}, ${describeRun(handle.exposure().tools.length)}\n`);
      await stopped(io.signal, handle.done);
    } else {
      const token = flags.token ?? (io.env ?? process.env)[MCP_TOKEN_ENV];
      const auth = (await import('@tool-search/auth')).createApiKeys(config.auth, io.env ?? process.env);
      const handle = await serveHttp({ ...options, state, auth, port: flags.http, ...(flags.host ? { host: flags.host } : {}), ...(token ? { token } : {}) }).catch((error: unknown) => {
        throw portInUse(error, flags.http!);
      });
      close = () => handle.close();
      // One run up front: downstream servers start now, and their failures are reported before the URL is.
      const warmup = await kernel.createRun(request);
      printDiagnostics(io, warmup.diagnostics);
      await warmup.close();
      const stop = stopped(io.signal); // listening before the URL is out: a SIGTERM right after it still shuts down cleanly
      io.stderr.write(`tool-search: MCP server on ${handle.url} (Streamable HTTP), mode ${mode}${token || auth.size ? ', API key required' : ''}; Ctrl-C stops\n`);
      await stop;
    }
  } finally {
    await close().catch(() => undefined);
    await kernel.close().catch(() => undefined);
    await state.close().catch(() => undefined);
    await otel.shutdown();
    restoreConsole();
  }
}

function printDiagnostics(io: CliIO, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) io.stderr.write(`tool-search: ${d.level} ${d.code}${d.plugin ? ` [${d.plugin}]` : ''}: ${d.message}\n`);
}

function describeRun(tools: number): string {
  return `${tools} tool${tools === 1 ? '' : 's'} exposed`;
}

/** Resolves on SIGINT, SIGTERM, the caller's abort, or `done` (the client went away). */
function stopped(signal: AbortSignal | undefined, done?: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const finish = () => {
      process.off('SIGINT', finish);
      process.off('SIGTERM', finish);
      signal?.removeEventListener('abort', finish);
      resolve();
    };
    if (signal?.aborted) return finish();
    process.once('SIGINT', finish);
    process.once('SIGTERM', finish);
    signal?.addEventListener('abort', finish, { once: true });
    void done?.then(finish);
  });
}

/** In stdio mode a stray `console.log` in any plugin would corrupt the protocol: send it to stderr. */
function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  return () => Object.assign(console, saved);
}

function stderrLogger(io: CliIO): Logger {
  const write = (level: string) => (message: string, data?: Record<string, unknown>) =>
    void io.stderr.write(`tool-search: ${level} ${message}${data && Object.keys(data).length ? ` ${JSON.stringify(data)}` : ''}\n`);
  return { debug: () => undefined, info: () => undefined, warn: write('warn'), error: write('error') };
}

function integer(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be an integer ${min}-${max}`);
    return n;
  };
}

/** A taken port is one coded line (`port N is in use; …`), not an `EADDRINUSE` stack. */
function portInUse(error: unknown, port: number): unknown {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') return error;
  return new ToolSearchError(GatewayErrors.PORT_IN_USE, `port ${port} is in use; pick another with --http`, { details: { port } });
}
