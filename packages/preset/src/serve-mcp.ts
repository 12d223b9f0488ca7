/**
 * The MCP front end, composed: `serveMcp` serves Tool Search as one MCP server over a front end built from the config
 * (state, telemetry, kernel; approvals go to the MCP client's user by elicitation), exposing only the search surface of
 * one mode, on stdio (stdout is the protocol, everything else goes to stderr) or Streamable HTTP, until the client
 * closes stdin (stdio), SIGINT, SIGTERM or `signal`. The MCP server module loads only when called.
 */
import type { ToolSearchConfig } from '@tool-search/config';
import { ToolSearchError, type Diagnostic, type Kernel, type Logger, type RunRequest } from '@tool-search/kernel';
import type { McpMode } from '@tool-search/mcp-server';
import { createFrontEnd, type FrontEnd, type FrontEndOptions } from './front-end.js';
import { stopped } from './stopped.js';
import { appliedToolSearch, runSettingOf } from './tool-search-setting.js';
import { sandboxingKernel } from './sandboxed-runs.js';
import { MCP_TOKEN_ENV, SERVE_MCP_MODES } from './serve-mcp-options.js';
import { capabilityInstalled, OPTIONAL_CAPABILITIES, requireCapability } from './capabilities.js';

export { MCP_TOKEN_ENV, SERVE_MCP_MODES };

export interface McpServeOptions extends Omit<FrontEndOptions, 'approvals' | 'logger' | 'onMcpToolsChanged'> {
  readonly config: ToolSearchConfig;
  /** The party every run serves (agent, provider/model, sandboxed, client tools); its toolSearch limits are added. */
  readonly request?: RunRequest;
  /** Default: the party's toolSearch setting when it is enabled and one of `SERVE_MCP_MODES`, else `tools`. */
  readonly mode?: McpMode | undefined;
  /** Streamable HTTP on this port (0: a free one) instead of stdio. */
  readonly http?: number | undefined;
  /** HTTP bind address (default 127.0.0.1; any other needs `auth.keys` or a token). */
  readonly host?: string | undefined;
  /** Bearer token HTTP clients must send; default `$TOOL_SEARCH_MCP_TOKEN`. */
  readonly token?: string | undefined;
  /** How often to re-list the sources (ms; 0 = never). */
  readonly refresh?: number | undefined;
  /** Operator logs (the plugins' warnings and errors). */
  readonly logger?: Logger;
  /** Status lines: where it serves, the diagnostics of the first run. */
  readonly log?: (line: string) => void;
  readonly signal?: AbortSignal | undefined;
}

/** Serves until stopped; resolves once the server, the kernel (downstream server processes end), the state store and the exporter are closed. */
export async function serveMcp(options: McpServeOptions): Promise<void> {
  const {
    config,
    request: asked = {},
    mode: fixedMode,
    http,
    host,
    token,
    refresh,
    log = () => undefined,
    signal,
    ...frontOptions
  } = options;
  const applied = appliedToolSearch(config, asked);
  // The search limits of this run's toolSearch setting travel in the request (the modes read them).
  const request = { ...asked, ...runSettingOf(applied) };
  // Approvals go to the MCP client's user (elicitation), never to a terminal prompt (stdin may be the MCP pipe); else deny.
  requireCapability(OPTIONAL_CAPABILITIES.mcpServer, 'serve mcp');
  const approvals = (await import('@tool-search/mcp-server')).elicitationApprovals();
  // A downstream `list_changed` re-lists at once instead of waiting for the refresh timer.
  const listeners = new Set<() => void>();
  const onCatalogChange = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  const front = await createFrontEnd(config, {
    ...frontOptions,
    approvals: approvals.approve,
    ...(http !== undefined ? { metrics: 'mcp' as const } : {}),
    onMcpToolsChanged: () => listeners.forEach((listener) => listener()),
  });
  const setting = applied.resolved;
  const mode: McpMode = fixedMode ?? SERVE_MCP_MODES.find((m) => m === setting.mode && setting.enabled) ?? 'tools';
  const restoreConsole = http === undefined ? consoleToStderr() : () => undefined; // stdio: stdout is the protocol
  try {
    const served = {
      mode,
      request,
      // Each run gets the sandbox the config gives its agent (the key's, over HTTP) and session (an MCP session is
      // never the main one); `--sandboxed` adds one, never takes it away.
      kernel: sandboxingKernel(front.kernel, config),
      approvals,
      onCatalogChange,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(refresh !== undefined ? { refreshIntervalMs: refresh } : {}),
    };
    if (http === undefined) await serveStdio(front, served, log, signal);
    else {
      const env = frontOptions.env ?? process.env;
      await serveHttp(
        front,
        { ...served, config, env, port: http, host, token: token ?? env[MCP_TOKEN_ENV] },
        log,
        signal,
      );
    }
  } finally {
    await front.close();
    restoreConsole();
  }
}

interface Served {
  readonly mode: McpMode;
  readonly request: RunRequest;
  readonly kernel: Kernel;
  readonly approvals: Awaited<ReturnType<typeof import('@tool-search/mcp-server')['elicitationApprovals']>>;
  readonly onCatalogChange: (listener: () => void) => () => void;
  readonly logger?: Logger;
  readonly refreshIntervalMs?: number;
}

async function serveStdio(
  front: FrontEnd,
  served: Served,
  log: (line: string) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { serveStdio: serve } = await import('@tool-search/mcp-server');
  const handle = await serve({
    ...served,
    ...(front.mcpDownstream ? { downstream: front.mcpDownstream } : {}),
  });
  front.onClose(() => handle.close());
  printDiagnostics(log, handle.diagnostics());
  const tools = handle.exposure().tools.length;
  log(
    `tool-search: MCP server on stdio, mode ${handle.exposure().mode}, ${tools} tool${tools === 1 ? '' : 's'} exposed`,
  );
  await stopped(signal, handle.done);
}

async function serveHttp(
  front: FrontEnd,
  served: Served & {
    config: ToolSearchConfig;
    env: NodeJS.ProcessEnv;
    port: number;
    host?: string | undefined;
    token?: string | undefined;
  },
  log: (line: string) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { serveHttp: serve } = await import('@tool-search/mcp-server');
  const { config, env, port, host, token, ...rest } = served;
  const auth = (await import('@tool-search/auth')).createApiKeys(config.auth, env);
  const { kernel } = served;
  const handle = await serve({
    ...rest,
    state: front.state,
    auth,
    port,
    ...(front.metrics ? { routes: [front.metrics.route] } : {}),
    ...(front.mcpDownstream ? { downstream: front.mcpDownstream } : {}),
    ...(host ? { host } : {}),
    ...(token ? { token } : {}),
  }).catch(async (error: unknown) => {
    throw await portInUse(error, port);
  });
  front.onClose(() => handle.close());
  front.metrics?.setSessions(() => handle.sessions);
  // One run up front: downstream servers start now, and their failures are reported before the URL is.
  const warmup = await kernel.createRun(served.request);
  printDiagnostics(log, warmup.diagnostics);
  await warmup.close();
  const stop = stopped(signal); // listening before the URL is out: a SIGTERM right after it still shuts down cleanly
  log(
    `tool-search: MCP server on ${handle.url} (Streamable HTTP), mode ${served.mode}${token || auth.size ? ', API key required' : ''}; Ctrl-C stops`,
  );
  await stop;
}

function printDiagnostics(log: (line: string) => void, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics)
    log(`tool-search: ${d.level} ${d.code}${d.plugin ? ` [${d.plugin}]` : ''}: ${d.message}`);
}

/** In stdio mode a stray `console.log` in any plugin would corrupt the protocol: send it to stderr (until the returned restore). */
function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  return () => Object.assign(console, saved);
}

/** A taken port is one coded line (`port N is in use; …`), not an `EADDRINUSE` stack. */
async function portInUse(error: unknown, port: number): Promise<unknown> {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') return error;
  // Its code is the gateway's: without that optional package the error stays as Node raised it.
  if (!capabilityInstalled(OPTIONAL_CAPABILITIES.gateway)) return error;
  const { GatewayErrors } = await import('@tool-search/gateway');
  return new ToolSearchError(GatewayErrors.PORT_IN_USE, `port ${port} is in use; pick another with --http`, {
    details: { port },
    cause: error,
  });
}
