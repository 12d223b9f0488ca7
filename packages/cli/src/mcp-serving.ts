/**
 * `serve mcp` over a front end: one MCP server on stdio (stdout is the protocol, everything else goes to stderr) or
 * Streamable HTTP, until the client closes stdin (stdio), SIGINT, SIGTERM or `io.signal`. The servers close with
 * the front end.
 */
import type { ToolSearchConfig } from '@tool-search/config';
import { errorMessage, ToolSearchError, type Diagnostic, type Logger, type RunRequest } from '@tool-search/kernel';
import type { elicitationApprovals, McpMode } from '@tool-search/mcp-server';
import type { FrontEnd } from '@tool-search/preset';
import type { CliIO } from './io.js';
import { stopped } from './commands/serving.js';
import { GatewayErrors } from '@tool-search/gateway';

/** Read when `--token` is not given, so the token need not appear in a process list. */
export const MCP_TOKEN_ENV = 'TOOL_SEARCH_MCP_TOKEN';

export interface McpServingOptions {
  readonly config: ToolSearchConfig;
  readonly mode: McpMode;
  readonly request: RunRequest;
  readonly logger: Logger;
  readonly approvals: ReturnType<typeof elicitationApprovals>;
  readonly onCatalogChange: (listener: () => void) => () => void;
  /** Streamable HTTP on this port instead of stdio. */
  readonly http?: number | undefined;
  readonly host?: string | undefined;
  readonly token?: string | undefined;
  readonly refresh?: number | undefined;
}

export async function serveOverMcp(front: FrontEnd, io: CliIO, options: McpServingOptions): Promise<void> {
  const { serveHttp, serveStdio } = await import('@tool-search/mcp-server');
  const { kernel, mcpDownstream, state } = front;
  const { mode, request, logger, approvals, onCatalogChange } = options;
  const served = { kernel, mode, request, logger, approvals, onCatalogChange, ...(mcpDownstream ? { downstream: mcpDownstream } : {}), ...(options.refresh !== undefined ? { refreshIntervalMs: options.refresh } : {}) };
  if (options.http === undefined) {
    const handle = await serveStdio(served);
    front.onClose(() => handle.close());
    printDiagnostics(io, handle.diagnostics());
    io.stderr.write(`tool-search: MCP server on stdio, mode ${handle.exposure().mode}, ${describeRun(handle.exposure().tools.length)}\n`);
    await stopped(io.signal, handle.done);
    return;
  }
  const port = options.http;
  const token = options.token ?? (io.env ?? process.env)[MCP_TOKEN_ENV];
  const auth = (await import('@tool-search/auth')).createApiKeys(options.config.auth, io.env ?? process.env);
  const handle = await serveHttp({ ...served, state, auth, port, ...(options.host ? { host: options.host } : {}), ...(token ? { token } : {}) }).catch((error: unknown) => {
    throw portInUse(error, port);
  });
  front.onClose(() => handle.close());
  // One run up front: downstream servers start now, and their failures are reported before the URL is.
  const warmup = await kernel.createRun(request);
  printDiagnostics(io, warmup.diagnostics);
  await warmup.close();
  const stop = stopped(io.signal); // listening before the URL is out: a SIGTERM right after it still shuts down cleanly
  io.stderr.write(`tool-search: MCP server on ${handle.url} (Streamable HTTP), mode ${mode}${token || auth.size ? ', API key required' : ''}; Ctrl-C stops\n`);
  await stop;
}

function printDiagnostics(io: CliIO, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) io.stderr.write(`tool-search: ${d.level} ${d.code}${d.plugin ? ` [${d.plugin}]` : ''}: ${d.message}\n`);
}

function describeRun(tools: number): string {
  return `${tools} tool${tools === 1 ? '' : 's'} exposed`;
}

/** In stdio mode a stray `console.log` in any plugin would corrupt the protocol: send it to stderr (until the returned restore). */
export function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  return () => Object.assign(console, saved);
}

/** Operator logs on stderr (warnings and errors only). */
export function stderrLogger(io: CliIO): Logger {
  const write = (level: string) => (message: string, data?: Record<string, unknown>) =>
    void io.stderr.write(`tool-search: ${level} ${message}${data && Object.keys(data).length ? ` ${logData(data)}` : ''}\n`);
  return { debug: () => undefined, info: () => undefined, warn: write('warn'), error: write('error') };
}

/** Log data as JSON: an error (a `cause`) as its name, message, code and own cause; data JSON cannot hold is named, not thrown. */
function logData(data: Record<string, unknown>): string {
  try {
    // `this[key]` is the value before `toJSON` (ToolSearchError's wire view drops the name and the cause).
    return JSON.stringify(data, function (this: Record<string, unknown>, key: string, value: unknown) {
      const raw = this[key];
      if (raw instanceof Error) {
        const code = (raw as { code?: unknown }).code;
        return { name: raw.name, message: raw.message, ...(code !== undefined ? { code } : {}), ...(raw.cause !== undefined ? { cause: raw.cause } : {}) };
      }
      return typeof value === 'bigint' ? String(value) : value;
    });
  } catch (error) {
    return `(log data not shown: ${errorMessage(error)})`;
  }
}

/** A taken port is one coded line (`port N is in use; …`), not an `EADDRINUSE` stack. */
function portInUse(error: unknown, port: number): unknown {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') return error;
  return new ToolSearchError(GatewayErrors.PORT_IN_USE, `port ${port} is in use; pick another with --http`, { details: { port } });
}
