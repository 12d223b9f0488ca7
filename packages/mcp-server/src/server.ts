/**
 * Tool Search as one MCP server: it aggregates whatever the kernel's sources
 * list (MCP servers, plugins) and answers `tools/list` with the exposure of
 * one mode only (control tools, `tool_search_code`, or the directory's visible
 * tools, with the directory text as the server's `instructions`). Every
 * `tools/call` goes through a run: policy, `beforeToolCall` plugins,
 * telemetry. When the exposure changes (a downstream `list_changed` seen by a
 * refresh), the client gets `notifications/tools/list_changed`. With the
 * `downstream` of plugin-mcp it is a faithful aggregator: progress, logs,
 * sampling, elicitation and cancellation are forwarded (forward.ts), and
 * resources, prompts and completions are served (aggregate.ts).
 */
import type { CallToolResult, Server } from '@modelcontextprotocol/server';
import { LegacyServer } from './legacy-codes.js';
import {
  ErrorCode,
  ToolSearchError,
  silentLogger,
  type Diagnostic,
  type Kernel,
  type Logger,
  type RunExposure,
  type RunRequest,
  type ToolDescriptor,
  errorMessage,
} from '@tool-search/kernel';
import type { McpDownstream } from '@tool-search/plugin-mcp';
import { serveAggregate } from './aggregate.js';
import { registerSkills, servedSkills, skillFileOf, SKILLS_CAPABILITIES } from './skills.js';
import type { ElicitationApprovals } from './approvals.js';
import { traceContextOf, traced } from './trace.js';
import { createSessionForwarding } from './forward.js';
import { createLiveRun, type LiveRun } from './live-run.js';
import { errorResult, explainUnavailable, toCallToolResult } from './result.js';
import { callExposed } from './app-only.js';
import { listWithReferences, referencedTools, wantsToolReferences, withToolReferences } from './tool-reference.js';
import { McpErrors } from '@tool-search/plugin-mcp/options';

export const MCP_MODES = Object.freeze(['tools', 'code', 'directory'] as const);
export type McpMode = (typeof MCP_MODES)[number];

export const DEFAULT_REFRESH_INTERVAL_MS = 10_000;

export interface ToolSearchMcpOptions {
  readonly kernel: Kernel;
  /** Exposure mode: tools (default), code or directory. */
  readonly mode?: McpMode;
  /** Run request fields (agent, provider, model, sandboxed) applied to every run; the session id is one per MCP session. */
  readonly request?: RunRequest;
  /** How often the catalog is rebuilt to notice downstream changes (default 10000 ms; 0 = never on a timer). */
  readonly refreshIntervalMs?: number;
  /**
   * Subscribes to "the catalog may have changed" signals (a downstream
   * `tools/list_changed`); each signal triggers a refresh. Returns an unsubscribe.
   */
  readonly onCatalogChange?: (listener: () => void) => () => void;
  /** Approvals asked of this session's client by elicitation (`elicitationApprovals()`, also given to the preset as `approve`). */
  readonly approvals?: ElicitationApprovals;
  /** plugin-mcp's `downstream` (`mcpPlugin(...).downstream`): resources, prompts, completions, logging and request forwarding. */
  readonly downstream?: McpDownstream;
  /**
   * Claude Code and clients declaring `experimental.toolReference` get the catalog listed and `tool_reference` blocks in
   * search results (tool-reference.ts); `false` gives every client the plain list and results. Default true.
   */
  readonly toolReferences?: boolean;
  readonly name?: string;
  readonly version?: string;
  /** Where refresh failures go (never stdout). */
  readonly logger?: Logger;
}

export interface ToolSearchMcpServer {
  readonly server: Server;
  /** The run session id shared by every run of this MCP session. */
  readonly sessionId: string;
  /** The exposure `tools/list` answers with now. */
  exposure(): RunExposure;
  /** Diagnostics of the current run (e.g. a downstream server that failed to start). */
  diagnostics(): readonly Diagnostic[];
  /** Rebuilds the run; notifies the client when the tool list changed. Returns whether it did. */
  refresh(): Promise<boolean>;
  /** Closes the MCP session and its runs (not the kernel: it may serve other sessions). */
  close(): Promise<void>;
}

export async function createToolSearchMcpServer(options: ToolSearchMcpOptions): Promise<ToolSearchMcpServer> {
  const mode = options.mode ?? 'tools';
  if (!MCP_MODES.includes(mode)) {
    throw new ToolSearchError(
      ErrorCode.OPTIONS_INVALID,
      `Unknown MCP exposure mode "${String(mode)}"; use one of ${MCP_MODES.join(', ')}`,
      {
        details: { mode, modes: [...MCP_MODES] },
      },
    );
  }
  const logger = options.logger ?? silentLogger;
  const { downstream } = options;
  // Before the first run connects anyone: downstream servers learn that sampling and elicitation can be forwarded.
  downstream?.enableForwarding();
  const live: LiveRun = await createLiveRun({
    kernel: options.kernel,
    mode,
    ...(options.request ? { request: options.request } : {}),
  });
  const instructions = live.current.exposure.system;
  const server: Server = new LegacyServer(
    { name: options.name ?? 'tool-search', version: options.version ?? '0.1.0' },
    {
      capabilities: { tools: { listChanged: true }, ...(downstream ? AGGREGATE_CAPABILITIES : {}) },
      ...(instructions ? { instructions } : {}),
    },
  );
  // Policy reaches resources and prompts by server: only servers with a tool in the effective catalog are seen.
  const visible = () => visibleServers(live.current.run.catalog);
  const forwarding = createSessionForwarding({
    server,
    sessionId: live.sessionId,
    ...(downstream ? { downstream } : {}),
    logger,
  });
  // Skills (SEP-2640) hidden by policy are not read either, even when their server shows other tools.
  const skillFile = (peer: string, uri: string) => skillFileOf(live.current.run, peer, uri);
  const aggregate = downstream ? serveAggregate({ server, downstream, visible, skillFile, logger }) : undefined;
  // What resources/list and skills/list show: the visible servers, and the visible skills (SEP-2640) among them.
  const shown = () =>
    [...visible(), ...servedSkills(live.current.run.catalog).map((skill) => skill.uri)].sort().join('\n');
  if (downstream) registerSkills(server, () => live.current.run);
  let closed = false;

  async function refresh(force = false): Promise<boolean> {
    if (closed) return false;
    const seen = downstream ? shown() : '';
    const { toolsChanged, replaced } = await live.refresh(force);
    // A reference client is listed the catalog too: a new run may change its list.
    const listChanged = toolsChanged || (replaced && references());
    if (listChanged && !closed) await server.sendToolListChanged().catch(() => undefined); // a notification to a client that is gone
    // A server policy now shows or hides (or that came or went) changes what resources and prompts list.
    if (downstream && !closed && shown() !== seen) {
      await Promise.all([server.sendResourceListChanged(), server.sendPromptListChanged()]).catch(() => undefined); // a notification to a client that is gone
    }
    return listChanged;
  }

  const background = (force = false) =>
    void refresh(force).catch((error: unknown) =>
      logger.warn(`refresh failed: ${errorMessage(error)}`, { cause: error }),
    );

  // Claude Code (or a client declaring `experimental.toolReference`) loads found tools natively (tool-reference.ts).
  const references = () =>
    options.toolReferences !== false && wantsToolReferences(server.getClientVersion(), server.getClientCapabilities());
  server.setRequestHandler(
    'tools/list',
    () => ({ tools: references() ? listWithReferences(live.current) : [...live.current.tools] }) as never,
  );

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args = {} } = request.params;
    const forwarded = forwarding.forCall(request, ctx);
    // The client's trace context (`_meta.traceparent`): the call's span joins its trace.
    const parentTrace = traceContextOf(request.params._meta);
    const result = await traced(parentTrace, { 'mcp.tool.name': name }, (handed) =>
      live.use(async ({ run, exposure }): Promise<CallToolResult> => {
        try {
          const listed = references() ? referencedTools(run, exposure) : undefined;
          const options = {
            signal: ctx.mcpReq.signal,
            scope: { mcp: forwarded.forwarding, ...(handed ? { trace: handed } : {}) },
          };
          // Also an app-only tool its app calls by name, or a catalog tool a reference client was listed (app-only.ts).
          const outcome = await callExposed(run, exposure, name, args, options, listed).finally(() =>
            forwarded.flush(),
          );
          const result = explainUnavailable(
            toCallToolResult(outcome),
            run.diagnostics,
            typeof args.id === 'string' ? args.id : name,
          );
          return listed ? withToolReferences(result, listed, exposure, name) : result;
        } catch (error) {
          // Only RUN_CLOSED escapes `exposure.call`: the session is closing.
          const coded = ToolSearchError.isInstance(error) ? error : undefined;
          return errorResult(coded?.code ?? ErrorCode.TOOL_EXECUTION_FAILED, errorMessage(error));
        }
      }),
    );
    const code = errorCodeOf(result);
    // A run stopped by a guard (loop circuit breaker) refuses every later call: this call reports the stop, the next ones get a fresh run.
    if (code === ErrorCode.RUN_STOPPED) background(true);
    // A downstream server that died or never started: a refresh reconnects it (plugin-mcp reconnects on the next listing).
    if (code === McpErrors.MCP_SERVER_UNAVAILABLE) background();
    return result;
  });

  const interval = options.refreshIntervalMs ?? DEFAULT_REFRESH_INTERVAL_MS;
  const timer = interval > 0 ? setInterval(() => background(), interval) : undefined;
  timer?.unref();
  const unsubscribe = options.onCatalogChange?.(() => background());
  const unregister = options.approvals?.register(live.sessionId, server);

  return {
    server,
    sessionId: live.sessionId,
    exposure: () => live.current.exposure,
    diagnostics: () => live.current.run.diagnostics,
    refresh: () => refresh(),
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      unsubscribe?.();
      unregister?.();
      forwarding.close();
      await aggregate?.close();
      await server.close().catch(() => undefined); // closing: the run below is closed either way
      await live.close();
    },
  };
}

const AGGREGATE_CAPABILITIES = {
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
  ...SKILLS_CAPABILITIES,
} as const;

function visibleServers(catalog: readonly ToolDescriptor[]): ReadonlySet<string> {
  // A server with a visible skill (SEP-2640) is visible too: its skill files are read as resources.
  return new Set(catalog.flatMap((tool) => (tool.source === 'mcp' || tool.source === 'skill' ? [tool.owner] : [])));
}

function errorCodeOf(result: CallToolResult): unknown {
  return result.isError
    ? (result.structuredContent as { error?: { code?: unknown } } | undefined)?.error?.code
    : undefined;
}
