/**
 * One MCP server over its lifetime in a kernel: connected lazily by the first
 * listing, its tool list cached until `notifications/tools/list_changed`,
 * torn down when it fails (the next listing reconnects), closed on shutdown.
 * Every failure leaves as a coded error naming the server; nothing here hangs
 * past its deadline.
 */
import { ProtocolError, SdkError, SdkErrorCode, type Client, type Tool } from '@modelcontextprotocol/client';
import {
  ErrorCode,
  errorMessage,
  ToolSearchError,
  type ExecuteContext,
  type Logger,
  type ToolResult,
} from '@tool-search/kernel';
import { authError, failureReason, withDeadline, type McpFailureReason } from './connection-errors.js';
import { listTools, type ListLimits, type ToolListing } from './list-tools.js';
import { OAuthSession, type McpAuthorizer } from './oauth-session.js';
import { handlerCapabilities, installHandlers, type McpClientHandlers } from './handlers.js';
import type { DownstreamHub } from './downstream.js';
import { CallForwarding, type McpCallForwarding } from './forwarding.js';
import { isHttpConfig, isPackageRunner, type McpRoot, type McpServerConfig } from './options.js';
import type { McpTokenStore } from './token-store.js';
import { coalesce, LIST_CHANGED_WINDOW_MS } from './coalesce.js';
import { stderrNote } from './stderr-note.js';
import { MESSAGE_TOO_LARGE } from './stdio-transport.js';
import { openClient, protocolVersionOf, type OpenedClient, type TransportKind } from './transport.js';
import { eraOf, mapProtocolError, type McpEra } from './protocol-errors.js';
import { McpErrors } from './errors.js';

export type McpServerState = 'idle' | 'connecting' | 'connected' | 'failed' | 'closed';

export type { McpFailureReason } from './connection-errors.js';

export interface McpServerStatus {
  readonly name: string;
  readonly state: McpServerState;
  readonly transport?: TransportKind;
  /** Current child pid (stdio, while connected). */
  readonly pid?: number;
  /** Every child pid this server has had, to check none is left behind. */
  readonly pids: readonly number[];
  readonly toolCount?: number;
  /** The MCP protocol version negotiated with the server (while connected). */
  readonly protocolVersion?: string;
  readonly lastError?: { readonly code: string; readonly reason?: McpFailureReason; readonly message: string };
}

export interface ConnectionSettings {
  readonly connectTimeoutMs: number;
  /** The budget of a package runner's first start (see `firstStartTimeoutMs`); `connectTimeoutMs` when smaller. */
  readonly firstStartTimeoutMs?: number;
  readonly callTimeoutMs: number;
  readonly shutdownGraceMs: number;
  readonly limits: ListLimits;
  readonly logger: Logger;
  readonly onToolsChanged?: (server: string) => void;
  readonly tokenStore: McpTokenStore;
  readonly authorizer?: McpAuthorizer;
  readonly handlers?: McpClientHandlers;
  readonly roots?: readonly McpRoot[];
  /** Capabilities to declare and where downstream events go (resources, prompts, logs). */
  readonly downstream?: DownstreamHub;
}

const STDERR_TAIL = 2_000;

export class ServerConnection {
  private state: McpServerState = 'idle';
  private opened: OpenedClient | undefined;
  private transport: TransportKind | undefined;
  private pid: number | undefined;
  private readonly pids = new Set<number>();
  private tools: ToolListing | undefined;
  /** When the cached listing's `ttlMs` runs out (epoch ms); undefined: no expiry. */
  private toolsExpireAt: number | undefined;
  private listing: Promise<ToolListing> | undefined;
  /** Counts `list_changed` notifications: a listing that was asked for before one is stale and is not cached. */
  private toolsGeneration = 0;
  /** The budget of the listing in flight (longer than `connectTimeoutMs` for a package runner's first start). */
  private listingBudgetMs = 0;
  /** A start has succeeded: the package runner has its package, later starts are ordinary. */
  private started = false;
  /** The long starts whose end is announced (`onToolsChanged`) once. */
  private readonly announced = new WeakSet<Promise<ToolListing>>();
  private stderr = '';
  private lastError: McpServerStatus['lastError'];
  private readonly closing = new Set<Promise<void>>();
  /** The kernel contexts of the tool calls in flight (handlers see which call a server request may belong to). */
  private readonly calls = new Set<ExecuteContext>();
  /** Aborts a connect or listing in flight when the plugin shuts down. */
  private readonly shutdown = new AbortController();

  /** OAuth of an HTTP server; kept across reconnects, so a refreshed token is not lost. */
  private readonly oauth: OAuthSession | undefined;
  private readonly forwarding: CallForwarding;

  constructor(
    readonly name: string,
    private readonly config: McpServerConfig,
    private readonly settings: ConnectionSettings,
  ) {
    if (isHttpConfig(config)) {
      this.oauth = new OAuthSession({
        server: name,
        config,
        store: settings.tokenStore,
        ...(settings.authorizer ? { authorizer: settings.authorizer } : {}),
      });
    }
    this.forwarding = new CallForwarding(name, (event) => settings.downstream?.emit(event));
  }

  /** The SDK client while connected (resources, prompts, completions: see downstream.ts). */
  get client(): Client | undefined {
    return this.state === 'connected' ? this.opened?.client : undefined;
  }

  get requestTimeoutMs(): number {
    return this.config.timeoutMs ?? this.settings.callTimeoutMs;
  }

  /** The server's tools (and the ones it listed that were dropped): from the cache, or connect (if needed) and list, within `connectTimeoutMs`. */
  listTools(): Promise<ToolListing> {
    if (this.state === 'closed') return Promise.reject(this.unavailable('the plugin was shut down'));
    // A 2026-07-28 list is reused until its `ttlMs` runs out (then read again), a 2025-era one until `list_changed`.
    if (this.tools && (this.toolsExpireAt === undefined || Date.now() < this.toolsExpireAt))
      return Promise.resolve(this.tools);
    // Runs created at the same time share one connection attempt.
    if (!this.listing) {
      const budgetMs = this.startBudgetMs();
      this.listingBudgetMs = budgetMs;
      const listing = this.connectAndList(budgetMs).finally(() => {
        if (this.listing === listing) this.listing = undefined;
      });
      this.listing = listing;
    }
    return this.listingBudgetMs > this.settings.connectTimeoutMs ? this.stillStarting(this.listing) : this.listing;
  }

  /** A package runner's first start (`npx -y` downloads the server: 26–30 s seen) gets the long budget. */
  private startBudgetMs(): number {
    const first = this.settings.firstStartTimeoutMs ?? 0;
    return !this.started && isPackageRunner(this.config)
      ? Math.max(first, this.settings.connectTimeoutMs)
      : this.settings.connectTimeoutMs;
  }

  /**
   * Waits `connectTimeoutMs` for a long start; past that the run goes on without the server, told so by an
   * `MCP_SERVER_STARTING` warning (not a silent catalog without its tools), and the start goes on: once it lists, the
   * server's tools are cached for the next run and `onToolsChanged` tells front ends (`tools/list_changed`).
   */
  private async stillStarting(listing: Promise<ToolListing>): Promise<ToolListing> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.settings.connectTimeoutMs);
    });
    try {
      const first = await Promise.race([listing, waited]);
      if (first) return first;
    } finally {
      clearTimeout(timer);
    }
    this.announceWhenReady(listing);
    const { command, args = [] } = this.config as { command: string; args?: readonly string[] };
    throw new ToolSearchError(
      McpErrors.MCP_SERVER_STARTING,
      `MCP server "${this.name}" is still starting after ${this.settings.connectTimeoutMs} ms (\`${[command, ...args].join(' ')}\` ` +
        `fetches the server on its first run; up to ${this.listingBudgetMs} ms, option firstStartTimeoutMs); its tools join ` +
        `the catalog when it is ready (serve mcp sends tools/list_changed, a gateway's next request has them). A one-shot command ends the ` +
        `start with it: raise mcp.connectTimeoutMs to wait for a first download there`,
      {
        details: {
          server: this.name,
          reason: 'starting',
          waitedMs: this.settings.connectTimeoutMs,
          budgetMs: this.listingBudgetMs,
        },
      },
    );
  }

  private announceWhenReady(listing: Promise<ToolListing>): void {
    if (this.announced.has(listing)) return;
    this.announced.add(listing);
    listing.then(
      () => {
        this.settings.logger.info(`MCP server "${this.name}" has started; its tools join the catalog`, {
          server: this.name,
        });
        this.settings.onToolsChanged?.(this.name);
      },
      (error: unknown) => {
        // Nobody awaits a start that went on in the background: its failure is logged here (and kept in lastError).
        if (this.state !== 'closed')
          this.settings.logger.warn(errorMessage(error), { server: this.name, cause: error });
      },
    );
  }

  /** Runs `call` as one of this server's calls in flight for `ctx` (see `McpRequestContext.calls`). */
  async during<T>(ctx: ExecuteContext, call: () => Promise<T>): Promise<T> {
    this.calls.add(ctx);
    try {
      return await call();
    } finally {
      this.calls.delete(ctx);
    }
  }

  /** Forwards a call. An `isError` result is returned as is; transport and protocol failures throw coded errors. */
  /**
   * `meta` goes into the request `_meta` (the W3C trace context). The listed `tool` lets the SDK check the result
   * against its output schema (2020-12 unless it says otherwise) and mirror `x-mcp-header` arguments (2026-07-28).
   */
  async callTool(
    tool: Tool,
    args: Record<string, unknown>,
    signal: AbortSignal,
    forwarding?: McpCallForwarding,
    meta?: Record<string, string>,
  ): Promise<ToolResult> {
    const name = tool.name;
    const client = this.opened?.client;
    if (!client || this.state !== 'connected') {
      throw this.unavailable('it is not connected (it exited or failed); the next run reconnects it');
    }
    const timeout = this.requestTimeoutMs;
    const forwarded = this.forwarding.begin(forwarding);
    try {
      const result = await client.callTool(
        { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
        { signal, timeout, toolDefinition: tool, ...forwarded.options },
      );
      return {
        // MCP content (audio, resource_link, blob resources) is carried as it came.
        content: (Array.isArray(result.content) ? result.content : []) as unknown as ToolResult['content'],
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
        ...(result.isError === true ? { isError: true } : {}),
        ...(result._meta !== undefined ? { _meta: result._meta } : {}),
      };
    } catch (error) {
      throw this.callError(error, signal, timeout, eraOf(protocolVersionOf(client)));
    } finally {
      forwarded.end();
    }
  }

  status(): McpServerStatus {
    return {
      name: this.name,
      state: this.state,
      pids: [...this.pids],
      ...(this.transport ? { transport: this.transport } : {}),
      ...(this.pid !== undefined && this.state === 'connected' ? { pid: this.pid } : {}),
      ...(this.tools ? { toolCount: this.tools.tools.length } : {}),
      ...(this.opened && this.state === 'connected' && protocolVersionOf(this.opened.client)
        ? { protocolVersion: protocolVersionOf(this.opened.client)! }
        : {}),
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }

  /** Ends the server (child process or HTTP session) and waits for every earlier teardown. */
  async close(): Promise<void> {
    this.state = 'closed';
    // A listing in flight ends now; it sees `closed` and hands its client to `closing`.
    this.shutdown.abort(this.unavailable('the plugin was shut down'));
    await this.listing?.catch(() => {}); // only waits for it; the listing reports its own failure
    this.teardown();
    while (this.closing.size) await Promise.all([...this.closing]);
  }

  private async connectAndList(budgetMs: number): Promise<ToolListing> {
    const timeout = AbortSignal.timeout(budgetMs);
    const deadline = AbortSignal.any([timeout, this.shutdown.signal]);
    try {
      const listing = await withDeadline(this.connectAndListUnbounded(deadline, budgetMs), deadline);
      this.started = true;
      return listing;
    } catch (error) {
      const failure = this.shutdown.signal.aborted
        ? (this.shutdown.signal.reason as ToolSearchError)
        : this.failure(error, timeout.aborted, budgetMs);
      this.lastError = {
        code: failure.code,
        reason: failure.details?.reason as McpFailureReason,
        message: failure.message,
      };
      if (this.state !== 'closed') this.state = 'failed';
      this.teardown();
      throw failure;
    }
  }

  private async connectAndListUnbounded(signal: AbortSignal, budgetMs: number): Promise<ToolListing> {
    if (!this.opened) await this.connect(signal, budgetMs);
    const client = this.opened?.client;
    if (!client) throw new Error('connection closed while connecting');
    const generation = this.toolsGeneration;
    const listing = await listTools(client, this.settings.limits, { signal, timeout: this.settings.connectTimeoutMs });
    // A list_changed that came while this listing was on its way makes it stale: answer it, but do not cache it.
    if (this.opened?.client === client && this.toolsGeneration === generation) {
      this.tools = Object.freeze(listing);
      this.toolsExpireAt = listing.ttlMs === undefined ? undefined : Date.now() + listing.ttlMs;
    }
    return listing;
  }

  private async connect(signal: AbortSignal, budgetMs: number): Promise<void> {
    this.state = 'connecting';
    this.stderr = '';
    // The configured handlers' capabilities are the more specific (elicitation form defaults), so they win a tie.
    const capabilities = {
      ...this.settings.downstream?.capabilities(),
      ...handlerCapabilities(this.settings.handlers, this.settings.roots),
    };
    const toolsChanged = coalesce(() => this.settings.onToolsChanged?.(this.name), LIST_CHANGED_WINDOW_MS);
    const opened = await openClient(this.config, {
      signal,
      timeoutMs: budgetMs,
      shutdownGraceMs: this.settings.shutdownGraceMs,
      ...(this.oauth ? { fetch: this.oauth.fetch() } : {}),
      capabilities,
      prepare: (client) => {
        installHandlers(client, this.name, this.settings.handlers, this.settings.roots, () => [...this.calls]);
        // A call forwarded from a front end's client routes sampling/elicitation there; otherwise the handlers answer.
        this.forwarding.install(client, capabilities, this.settings.handlers, () => [...this.calls]);
        client.onclose = () => this.onClosed(client);
      },
      onStderr: (chunk) => {
        this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
      },
      onPid: (pid) => this.pids.add(pid),
      onError: (error) =>
        this.settings.logger.warn(`MCP server "${this.name}" transport error: ${error.message}`, { server: this.name }),
      track: (closing) => this.track(closing),
      // Invalidate synchronously: the notification arrives before the answer of the call that caused it.
      // Listeners (a refresh of every front-end session) hear of a flood at most once per window.
      onToolsChanged: (client) => {
        if (this.opened?.client === client) {
          this.tools = undefined;
          this.toolsGeneration++;
          // A listing in flight was asked for before the change: the next run lists again rather than join it.
          this.listing = undefined;
        }
        toolsChanged();
      },
    });
    if ((this.state as McpServerState) === 'closed') {
      this.track(opened.close().catch(() => {})); // closing a client nobody will use: best effort
      throw new Error('the plugin was shut down while the server was starting');
    }
    this.opened = opened;
    this.transport = opened.kind;
    if (opened.pid !== null) this.pid = opened.pid;
    this.state = 'connected';
    this.lastError = undefined;
    this.settings.downstream?.connected(opened.client);
  }

  private onClosed(client: Client): void {
    if (this.opened?.client !== client) return;
    this.opened = undefined;
    this.tools = undefined;
    if (this.state === 'connected') {
      this.state = 'failed';
      this.lastError = {
        code: McpErrors.MCP_SERVER_UNAVAILABLE,
        reason: 'exit',
        message: `MCP server "${this.name}" closed its connection${this.stderrNote()}`,
      };
      this.settings.logger.warn(this.lastError.message, { server: this.name });
    }
  }

  /** Drops the current client and closes it in the background (tracked for shutdown). */
  private teardown(): void {
    const opened = this.opened;
    this.opened = undefined;
    this.tools = undefined;
    if (opened) this.track(opened.close().catch(() => {})); // closing a client nobody will use: best effort
  }

  private track(closing: Promise<void>): void {
    const tracked = closing.finally(() => this.closing.delete(tracked));
    this.closing.add(tracked);
  }

  private failure(error: unknown, timedOut: boolean, budgetMs: number): ToolSearchError {
    const auth = authError(error);
    if (auth && !timedOut) return auth;
    const reason = failureReason(error, timedOut);
    const why = timedOut
      ? budgetMs > this.settings.connectTimeoutMs
        ? `did not start and list its tools within ${budgetMs} ms, its first start through a package runner (option firstStartTimeoutMs)`
        : `did not start and list its tools within ${budgetMs} ms (option connectTimeoutMs; mcp.connectTimeoutMs in tool-search.json raises or lowers it)`
      : `failed (${reason}): ${errorMessage(error)}`;
    return new ToolSearchError(
      McpErrors.MCP_SERVER_FAILED,
      `MCP server "${this.name}" ${why}${this.stderrNote()}; its tools are missing from this run`,
      {
        cause: error,
        details: { server: this.name, reason },
      },
    );
  }

  private callError(error: unknown, signal: AbortSignal, timeout: number, era: McpEra): ToolSearchError {
    const details = { server: this.name };
    const auth = authError(error);
    if (auth) return auth;
    if (ToolSearchError.isInstance(error)) return error;
    if (signal.aborted) {
      const reason: unknown = signal.reason;
      if (ToolSearchError.isInstance(reason)) return reason;
      return new ToolSearchError(ErrorCode.TOOL_CALL_ABORTED, `The call to MCP server "${this.name}" was cancelled`, {
        cause: error,
        details,
      });
    }
    const data =
      error instanceof ProtocolError
        ? (error.data as { reason?: unknown; size?: unknown; limit?: unknown } | undefined)
        : undefined;
    if (data?.reason === MESSAGE_TOO_LARGE) {
      return new ToolSearchError(
        McpErrors.MCP_RESULT_TOO_LARGE,
        `MCP server "${this.name}" answered with ${data.size} bytes, over the ${data.limit}-byte message limit; the result was dropped`,
        {
          cause: error,
          details: { ...details, size: data.size, limit: data.limit },
        },
      );
    }
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      return new ToolSearchError(
        ErrorCode.TOOL_TIMEOUT,
        `MCP server "${this.name}" did not answer within ${timeout} ms (the server's timeoutMs, or option callTimeoutMs, raises or lowers it)`,
        { cause: error, details },
      );
    }
    if ((error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) || !this.opened) {
      return new ToolSearchError(
        McpErrors.MCP_SERVER_UNAVAILABLE,
        `MCP server "${this.name}" closed during the call${this.stderrNote()}; the next run reconnects it`,
        {
          cause: error,
          details,
        },
      );
    }
    const message = errorMessage(error);
    // The server's JSON-RPC error, read in the era it was spoken to in (codes were renumbered in 2026-07-28).
    const mapped =
      error instanceof ProtocolError
        ? mapProtocolError(era, error.code, error.data)
        : { code: McpErrors.MCP_CALL_FAILED, details: {} };
    return new ToolSearchError(mapped.code, `MCP server "${this.name}" rejected the call: ${message}`, {
      cause: error,
      details: { ...details, ...mapped.details },
    });
  }

  private unavailable(why: string): ToolSearchError {
    return new ToolSearchError(McpErrors.MCP_SERVER_UNAVAILABLE, `MCP server "${this.name}" is unavailable: ${why}`, {
      details: { server: this.name },
    });
  }

  private stderrNote(): string {
    return stderrNote(this.stderr, this.config);
  }
}
