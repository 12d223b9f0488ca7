/**
 * `serve mcp` for 2026-07-28 clients over HTTP, on the v2 server SDK's
 * `createMcpHandler`: stateless, one fresh v2 `Server` per request. The SDK
 * answers `server/discover`, reads the per-request `_meta` envelope (protocol
 * version, client capabilities), requires and checks the `Mcp-Method` /
 * `Mcp-Name` headers (a mismatch is JSON-RPC `-32020` with HTTP 400), stamps
 * `ttlMs` / `cacheScope` on lists and serves `subscriptions/listen`. What is
 * ours: the run behind a request (one per agent, kept current like a
 * session's, so policy decides the lists), `tools/list` in name order,
 * `tools/call` through the run, the aggregated resources, prompts and
 * completions, and downstream requests during a call bridged to
 * `input_required` rounds (input-bridge.ts). 2025-era traffic never reaches
 * this file (transports.ts routes it to the sessions).
 */
import { randomUUID } from 'node:crypto';
import {
  createMcpHandler,
  inputRequired,
  Server,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type Implementation,
  type AuthInfo,
  type ClientCapabilities,
  type CallToolResult as ModernCallToolResult,
  type InputRequest,
  type McpRequestContext,
  type ServerContext,
} from '@modelcontextprotocol/server';
import {
  ProtocolError as McpError,
  ProtocolErrorCode as McpErrorCode,
  type CallToolResult,
  type CreateMessageResult,
  type ElicitResult,
} from '@modelcontextprotocol/server';
import {
  ErrorCode,
  errorMessage,
  ToolSearchError,
  silentLogger,
  type RunRequest,
  type ToolDescriptor,
} from '@tool-search/kernel';
import type { McpCallForwarding, McpPeer } from '@tool-search/plugin-mcp';
import { registerAggregate, type AggregateRegister } from './aggregate.js';
import { withModernAsker } from './approvals.js';
import type { ParkedCalls } from './parked-calls.js';
import { traceContextOf, traced } from './trace.js';
import { createInputBridge, type Ask, type BridgeStep } from './input-bridge.js';
import { callNotices, tokenBucket } from './throttle.js';
import { echoed } from './echo.js';
import { McpServerErrors } from './errors.js';
import { createLiveRun, type LiveRun } from './live-run.js';
import { parseResourceUri, resourceUri } from './namespace.js';
import { errorResult, explainUnavailable, toCallToolResult } from './result.js';
import { callExposed } from './app-only.js';
import { listWithReferences, referencedTools, wantsToolReferences, withToolReferences } from './tool-reference.js';
import { DEFAULT_REFRESH_INTERVAL_MS, type ToolSearchMcpOptions } from './server.js';
import { registerSkills, skillFileOf, SKILLS_CAPABILITIES } from './skills.js';
import { McpErrors } from '@tool-search/plugin-mcp/options';

export interface ModernHandlerOptions extends ToolSearchMcpOptions {
  readonly maxBodyBytes: number;
  /** How long a call waiting for the client's `input_required` answers is kept (default 5 min). */
  readonly inputIdleMs?: number;
  /** Parked calls shared with other replicas (parked-calls.ts); without it a retry must reach the replica that parked the call. */
  readonly parked?: ParkedCalls;
}

export interface ModernCaller {
  /** The API key's id (keyless: none): parked calls resume only for the key that started them. */
  readonly keyId?: string;
  readonly agentId?: string;
}

export interface ModernHandler {
  /** Settles once relayed retries from other replicas are heard (at once without `parked`). */
  readonly ready: Promise<void>;
  fetch(request: Request, body: unknown, caller: ModernCaller): Promise<Response>;
  /** Runs held for callers now (one per agent). */
  readonly runs: number;
  close(): Promise<void>;
}

export function createModernHandler(options: ModernHandlerOptions): ModernHandler {
  const core = createModernServers({ ...options, resourceSubscriptions: true });
  const handler = createMcpHandler((context) => core.build(context), {
    legacy: 'reject',
    maxRequestBodySize: options.maxBodyBytes,
    onerror: (error) => (options.logger ?? silentLogger).debug?.(`2026-07-28 request: ${error.message}`),
  });
  // Open `subscriptions/listen` streams hear of changes through the handler's bus.
  const unsubscribe = core.onChange((change) => {
    if (change.kind === 'tools') handler.notify.toolsChanged();
    if (change.kind === 'resources') handler.notify.resourcesChanged();
    if (change.kind === 'prompts') handler.notify.promptsChanged();
    if (change.kind === 'resource') handler.notify.resourceUpdated(change.uri);
  });
  const serve = (request: Request, body: unknown, caller: ModernCaller) =>
    handler.fetch(request, {
      parsedBody: body,
      ...(caller.keyId !== undefined || caller.agentId !== undefined ? { authInfo: authInfoOf(caller) } : {}),
    });
  return {
    ready: core.ready,
    async fetch(request, body, caller) {
      const uris = listenedResources(body);
      if (!uris) return serve(request, body, caller);
      // `subscriptions/listen` with resource URIs: subscribed downstream for as long as the stream lasts; the filter
      // handed to the SDK keeps only the URIs this caller may see (so its acknowledgement says what is honored).
      const subscription = await core.subscribe(caller, uris, request.signal);
      try {
        const response = await serve(request, withResources(body, subscription.uris), caller);
        return untilEnded(response, subscription.release);
      } catch (error) {
        subscription.release();
        throw error;
      }
    },
    get runs() {
      return core.runs;
    },
    async close() {
      unsubscribe();
      await handler.close().catch(() => undefined); // closing: the core below is closed either way
      await core.close();
    },
  };
}

/** A change 2026-07-28 clients hear of on their `subscriptions/listen` streams. */
export type ModernChange =
  | { readonly kind: 'tools' | 'resources' | 'prompts' }
  | { readonly kind: 'resource'; readonly uri: string };

export interface ModernServers {
  /** Settles once relayed retries from other replicas are heard. */
  readonly ready: Promise<void>;
  /** A fresh v2 `Server` for one request (HTTP) or one connection (stdio), answering for the caller in `context.authInfo`. */
  build(context: McpRequestContext): Promise<Server>;
  onChange(listener: (change: ModernChange) => void): () => void;
  /**
   * Subscribes downstream to the namespaced resource URIs of `uris` that `caller` may see (their server is visible to
   * its policy and supports `subscribe`); `release` unsubscribes. The others are dropped.
   */
  subscribe(
    caller: ModernCaller,
    uris: readonly string[],
    signal: AbortSignal,
  ): Promise<{ readonly uris: readonly string[]; release(): void }>;
  readonly runs: number;
  close(): Promise<void>;
}

/** The era-independent part: runs per agent, kept current, and the v2 servers built on them. */
export function createModernServers(
  options: ToolSearchMcpOptions &
    Pick<ModernHandlerOptions, 'inputIdleMs' | 'parked'> & {
      /** Advertise `resources.subscribe` (the caller routes `subscriptions/listen` resource URIs through `subscribe`). */
      readonly resourceSubscriptions?: boolean;
    },
): ModernServers {
  const logger = options.logger ?? silentLogger;
  const { downstream, kernel } = options;
  const mode = options.mode ?? 'tools';
  const interval = options.refreshIntervalMs ?? DEFAULT_REFRESH_INTERVAL_MS;
  // A list is good until the next refresh could change it; no timer: until a list change is announced.
  const listHint = {
    ttlMs: interval > 0 ? interval : 60_000,
    cacheScope: 'private' as const,
  };
  const runs = new Map<string, Promise<LiveRun>>();
  const bridge = createInputBridge(options.inputIdleMs, options.parked?.hooks);
  const ready = options.parked ? options.parked.listen(bridge) : Promise.resolve();
  const listeners = new Set<(change: ModernChange) => void>();
  const emit = (change: ModernChange) => {
    for (const listener of listeners) listener(change);
  };
  let closed = false;
  let referenceClientsSeen = false;

  /** The run of one agent's requests: built at its first request, refreshed with the others, shared by its requests. */
  function runFor(agentId: string | undefined): Promise<LiveRun> {
    const key = agentId ?? '';
    let live = runs.get(key);
    if (!live) {
      const request: RunRequest = {
        ...options.request,
        ...(agentId !== undefined ? { agentId } : {}),
      };
      live = createLiveRun({ kernel, mode, request });
      live.catch(() => runs.delete(key));
      runs.set(key, live);
    }
    return live;
  }

  async function refresh(): Promise<void> {
    let changed = false;
    for (const live of [...runs.values()]) {
      const run = await live.catch(() => undefined); // a run that failed to start was reported to its request; nothing to refresh
      if (!run || closed) continue;
      const { toolsChanged, replaced } = await run.refresh();
      // A reference client (tool-reference.ts) is listed the catalog too: a new run may change its list.
      changed = toolsChanged || (replaced && referenceClientsSeen) || changed;
    }
    if (changed && !closed) emit({ kind: 'tools' });
  }
  const background = () =>
    void refresh().catch((error: unknown) => logger.warn(`refresh failed: ${errorMessage(error)}`, { cause: error }));
  const timer = interval > 0 ? setInterval(background, interval) : undefined;
  timer?.unref();
  const unsubscribeCatalog = options.onCatalogChange?.(background);
  const unsubscribeDownstream = downstream?.on((event) => {
    if (event.type === 'resources-changed') emit({ kind: 'resources' });
    if (event.type === 'prompts-changed') emit({ kind: 'prompts' });
    if (event.type === 'resource-updated') emit({ kind: 'resource', uri: resourceUri(event.server, event.uri) });
  });

  async function build(context: McpRequestContext): Promise<Server> {
    const caller = callerOf(context.authInfo);
    const live = await runFor(caller.agentId);
    const instructions = live.current.exposure.system;
    const server = new Server(
      {
        name: options.name ?? 'tool-search',
        version: options.version ?? '0.1.0',
      },
      {
        capabilities: {
          tools: { listChanged: true },
          ...(downstream
            ? {
                resources: { listChanged: true, ...(options.resourceSubscriptions ? { subscribe: true } : {}) },
                prompts: { listChanged: true },
                completions: {},
                ...SKILLS_CAPABILITIES,
              }
            : {}),
        },
        ...(instructions ? { instructions } : {}),
        cacheHints: {
          'tools/list': listHint,
          'prompts/list': listHint,
          'resources/list': listHint,
          'resources/templates/list': listHint,
          'server/discover': listHint,
          'resources/read': { ttlMs: 0, cacheScope: 'private' },
        },
      },
    );
    // The exposure's order, made deterministic: clients and caches compare lists.
    server.setRequestHandler('tools/list', (_request, ctx) => {
      const tools = referencesWanted(server, ctx) ? listWithReferences(live.current) : [...live.current.tools];
      return { tools: tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) } as never;
    });
    server.setRequestHandler(
      'tools/call',
      (request, ctx) => callTool(server, live, caller, request.params, ctx) as never,
    );
    if (downstream) {
      const register: AggregateRegister = (method, handle) =>
        server.setRequestHandler(
          method as 'resources/list',
          (request, ctx) => handle(request.params ?? {}, ctx.mcpReq.signal) as never,
        );
      registerAggregate(
        {
          downstream,
          logger,
          visible: () => visibleServers(live.current.run.catalog),
          skillFile: (peer, uri) => skillFileOf(live.current.run, peer, uri),
        },
        register,
        false,
      );
      registerSkills(server, () => live.current.run, listHint);
    }
    return server;
  }

  async function callTool(
    server: Server,
    live: LiveRun,
    caller: ModernCaller,
    params: { name: string; arguments?: Record<string, unknown> },
    ctx: ServerContext,
  ): Promise<ModernCallToolResult | ReturnType<typeof inputRequired>> {
    const owner = `${caller.keyId ?? ''}\n${caller.agentId ?? ''}`;
    const state = ctx.mcpReq.requestState<string>();
    let step: BridgeStep;
    if (typeof state === 'string') {
      refuseOversized(state);
      const responses = ctx.mcpReq.inputResponses ?? {};
      // Parked here, or on another replica (relayed there: the call itself cannot move).
      const resumed =
        bridge.resume(owner, state, responses) ?? (await resumeElsewhere(owner, state, responses, ctx.mcpReq.signal));
      if (!resumed)
        throw new McpError(
          McpErrorCode.InvalidParams,
          'Unknown or expired requestState: call the tool again without it',
          { requestState: echoed(state) },
        );
      step = await resumed;
    } else {
      // The capabilities this request declares (2026-07-28 has no handshake: each request carries them).
      const client =
        ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
          | ClientCapabilities
          | undefined) ?? server.getClientCapabilities();
      const references = referencesWanted(server, ctx);
      const token = ctx.mcpReq._meta?.progressToken;
      // The client's trace context (`_meta.traceparent`): the call's span joins its trace.
      const parentTrace = traceContextOf(ctx.mcpReq._meta, ctx.mcpReq.envelope);
      step = await bridge.start(owner, (ask, signal) =>
        traced(parentTrace, { 'mcp.tool.name': params.name }, (handed) =>
          live.use(async ({ run, exposure }) => {
            // Progress through this request's own budget (its latest always sent); 2026-07-28 forwards no logs.
            const notices = callNotices({
              bucket: tokenBucket(),
              // progress for a request whose client went away
              send: (notification) => ctx.mcpReq.notify(notification).catch(() => undefined),
              ...(token !== undefined ? { token } : {}),
            });
            // Each request is a session of its own: requests of one agent may come from different clients.
            const forwarding = callForwarding(
              `${live.sessionId}:${randomUUID()}`,
              client,
              ask,
              token === undefined ? undefined : (progress) => notices.progress(progress),
            );
            const name = params.name;
            const args = params.arguments ?? {};
            try {
              // An approval this call needs is asked of this request's client, by an `input_required` round.
              const asker = client?.elicitation ? { ask } : {};
              const listed = references ? referencedTools(run, exposure) : undefined;
              const options = { signal, scope: { mcp: forwarding, ...(handed ? { trace: handed } : {}) } };
              // Also an app-only tool its app calls by name, or a catalog tool a reference client was listed.
              const outcome = await withModernAsker(asker, () =>
                callExposed(run, exposure, name, args, options, listed),
              ).finally(() => notices.flush());
              const result = explainUnavailable(
                toCallToolResult(outcome),
                run.diagnostics,
                typeof args.id === 'string' ? args.id : name,
              );
              return listed ? withToolReferences(result, listed, exposure, name) : result;
            } catch (error) {
              const coded = ToolSearchError.isInstance(error) ? error : undefined;
              return errorResult(coded?.code ?? ErrorCode.TOOL_EXECUTION_FAILED, errorMessage(error));
            }
          }),
        ),
      );
    }
    if ('done' in step) {
      const code = (step.done.structuredContent as { error?: { code?: unknown } } | undefined)?.error?.code;
      if (code === ErrorCode.RUN_STOPPED)
        void live
          .refresh(true)
          .catch((error: unknown) => logger.warn(`refresh failed: ${errorMessage(error)}`, { cause: error }));
      if (code === McpErrors.MCP_SERVER_UNAVAILABLE) background();
      return step.done as ModernCallToolResult;
    }
    return inputRequired({
      inputRequests: step.inputRequests as unknown as Record<string, InputRequest>,
      requestState: step.requestState,
    });
  }

  /** Whether this request's client takes `tool_reference` blocks (its envelope's client info and capabilities). */
  function referencesWanted(server: Server, ctx: ServerContext): boolean {
    if (options.toolReferences === false) return false;
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    const wanted = wantsToolReferences(
      (envelope?.[CLIENT_INFO_META_KEY] as Implementation | undefined) ?? server.getClientVersion(),
      (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities(),
    );
    if (wanted) referenceClientsSeen = true;
    return wanted;
  }

  /** A retry for a call parked on another replica; a store or holder failure is a JSON-RPC error naming its code. */
  async function resumeElsewhere(
    owner: string,
    state: string,
    responses: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<BridgeStep | undefined> {
    if (!options.parked) return undefined;
    try {
      return await options.parked.resumeElsewhere(owner, state, responses, signal);
    } catch (error) {
      if (!ToolSearchError.isInstance(error)) throw error;
      throw new McpError(McpErrorCode.InternalError, error.message, { code: error.code });
    }
  }

  async function subscribe(caller: ModernCaller, uris: readonly string[], signal: AbortSignal) {
    const live = await runFor(caller.agentId);
    const visible = visibleServers(live.current.run.catalog);
    const held: { peer: McpPeer; original: string }[] = [];
    const honored: string[] = [];
    for (const uri of new Set(uris)) {
      const parsed = parseResourceUri(uri);
      const peer = parsed && visible.has(parsed.server) ? downstream?.peer(parsed.server) : undefined;
      if (!parsed || !peer?.capabilities.resources?.subscribe) continue;
      try {
        await peer.subscribe(parsed.original, signal);
      } catch (error) {
        logger.warn(`subscribing to ${uri} failed: ${errorMessage(error)}`, { cause: error });
        continue;
      }
      held.push({ peer, original: parsed.original });
      honored.push(uri);
    }
    let released = false;
    return {
      uris: honored,
      release() {
        if (released) return;
        released = true;
        // Best effort: the stream is gone; a downstream server that missed the unsubscribe only sends updates nobody reads.
        for (const { peer, original } of held) void peer.unsubscribe(original).catch(() => undefined);
      },
    };
  }

  return {
    ready,
    subscribe,
    build,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    get runs() {
      return runs.size;
    },
    async close() {
      closed = true;
      listeners.clear();
      if (timer) clearInterval(timer);
      unsubscribeCatalog?.();
      unsubscribeDownstream?.();
      bridge.close();
      const held = await Promise.all([...runs.values()].map((live) => live.catch(() => undefined))); // closing: a run that failed to start has nothing to close
      runs.clear();
      await Promise.all(held.map((live) => live?.close()));
    },
  };
}

/**
 * What a downstream server may ask of the calling client during a call: its requests become `input_required`
 * rounds, each only when the client declared the capability (otherwise plugin-mcp's configured handlers, else a refusal).
 */
function callForwarding(
  session: string,
  client: ClientCapabilities | undefined,
  ask: Ask,
  onProgress: McpCallForwarding['onProgress'],
): McpCallForwarding {
  return {
    session,
    ...(onProgress ? { onProgress } : {}),
    ...(client?.elicitation
      ? {
          elicitInput: async (params, signal) =>
            (await ask({ method: 'elicitation/create', params: { ...params } }, signal)) as ElicitResult,
        }
      : {}),
    ...(client?.sampling
      ? {
          createMessage: async (params, signal) =>
            (await ask({ method: 'sampling/createMessage', params: { ...params } }, signal)) as CreateMessageResult,
        }
      : {}),
  };
}

/** The states this server issues are 32 characters (input-bridge.ts); anything this long is not one of them. */
const MAX_REQUEST_STATE_CHARS = 256;

/** A `requestState` no Tool Search replica issued is refused before it is looked up, relayed or echoed. */
function refuseOversized(state: string): void {
  if (state.length <= MAX_REQUEST_STATE_CHARS) return;
  throw new McpError(
    McpErrorCode.InvalidParams,
    `requestState is ${state.length} characters, longer than any this server issues (${MAX_REQUEST_STATE_CHARS}): call the tool again without it`,
    {
      code: McpServerErrors.MCP_REQUEST_STATE_INVALID,
      details: { length: state.length, limit: MAX_REQUEST_STATE_CHARS },
    },
  );
}

function authInfoOf(caller: ModernCaller): AuthInfo {
  return {
    token: '',
    clientId: caller.keyId ?? '',
    scopes: [],
    extra: {
      ...(caller.agentId !== undefined ? { agentId: caller.agentId } : {}),
      keyed: caller.keyId !== undefined,
    },
  };
}

function callerOf(info: AuthInfo | undefined): ModernCaller {
  if (!info) return {};
  const agentId = info.extra?.agentId;
  return {
    ...(info.extra?.keyed ? { keyId: info.clientId } : {}),
    ...(typeof agentId === 'string' ? { agentId } : {}),
  };
}

function visibleServers(catalog: readonly ToolDescriptor[]): ReadonlySet<string> {
  // A server with a visible skill (SEP-2640) is visible too: its skill files are read as resources.
  return new Set(catalog.flatMap((tool) => (tool.source === 'mcp' || tool.source === 'skill' ? [tool.owner] : [])));
}

export type { CallToolResult };

/** The resource URIs of a `subscriptions/listen` request (undefined for any other message, or one without them). */
function listenedResources(body: unknown): readonly string[] | undefined {
  const message = body as
    | { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } }
    | undefined;
  if (message?.method !== 'subscriptions/listen') return undefined;
  const uris = message.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) && uris.length > 0 && uris.every((uri) => typeof uri === 'string') ? uris : undefined;
}

function withResources(body: unknown, uris: readonly string[]): unknown {
  const message = body as { params: { notifications: Record<string, unknown> } };
  const { resourceSubscriptions: _dropped, ...notifications } = message.params.notifications;
  return {
    ...message,
    params: {
      ...message.params,
      notifications: uris.length ? { ...notifications, resourceSubscriptions: uris } : notifications,
    },
  };
}

/** The response, with `ended` called once its body is done or cancelled (the client went away). */
function untilEnded(response: Response, ended: () => void): Response {
  if (!response.body) {
    ended();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          ended();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        ended();
        controller.error(error);
      }
    },
    cancel(reason) {
      ended();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
