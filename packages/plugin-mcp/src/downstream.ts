/**
 * The downstream servers as a front end sees them beyond tools: resources,
 * resource templates, prompts, completions, logging level and subscriptions,
 * each request sent to one named server with its call timeout. Lists follow
 * `nextCursor` to the end. Subscriptions are counted, so two front-end
 * sessions watching one resource share one downstream subscription.
 * Namespacing and policy are the front end's: this is per server, as the
 * server said it.
 */
import type {
  Client,
  ClientCapabilities,
  CompleteRequest,
  CompleteResult,
  GetPromptRequest,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceRequest,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  ServerCapabilities,
} from '@modelcontextprotocol/client';
import {
  ProtocolError,
  ResourceNotFoundError,
  specTypeSchemas,
  type RequestOptions,
  type StandardSchemaV1,
} from '@modelcontextprotocol/client';
import { FORWARDING_CAPABILITIES, type DownstreamEvent } from './forwarding.js';
import { isResourceNotFoundCode } from './protocol-errors.js';

/**
 * Whether `McpPeer.readResource` failed because the server has no such resource: -32002 before 2026-07-28,
 * -32602 with `data: { uri }` since; the SDK makes both one error class when `data.uri` is there, and a bare
 * -32002 (older servers) is read through the era table. A front end maps it to its client's era.
 */
export function isResourceNotFound(error: unknown): boolean {
  return (
    error instanceof ResourceNotFoundError ||
    (error instanceof ProtocolError && isResourceNotFoundCode('2025', error.code, error.data))
  );
}

/** One connected downstream server. */
export interface McpPeer {
  readonly name: string;
  readonly capabilities: ServerCapabilities;
  listResources(signal?: AbortSignal): Promise<Resource[]>;
  listResourceTemplates(signal?: AbortSignal): Promise<ResourceTemplate[]>;
  readResource(params: ReadResourceRequest['params'], signal?: AbortSignal): Promise<ReadResourceResult>;
  /** Counted: the downstream `resources/subscribe` is sent for the first subscriber only. */
  subscribe(uri: string, signal?: AbortSignal): Promise<void>;
  /** Counted: the downstream `resources/unsubscribe` is sent when the last subscriber leaves. */
  unsubscribe(uri: string, signal?: AbortSignal): Promise<void>;
  listPrompts(signal?: AbortSignal): Promise<Prompt[]>;
  getPrompt(params: GetPromptRequest['params'], signal?: AbortSignal): Promise<GetPromptResult>;
  complete(params: CompleteRequest['params'], signal?: AbortSignal): Promise<CompleteResult>;
}

/** The aggregate a front end (serve mcp) works with: `mcpPlugin(...).downstream`. */
export interface McpDownstream {
  /** The servers connected now (those that listed their tools in the latest run), in config order. */
  peers(): readonly McpPeer[];
  peer(name: string): McpPeer | undefined;
  /**
   * A front-end session's `logging/setLevel` (`undefined`: the session left). Every connected server
   * that declares `logging` gets the most verbose level any session still asks for.
   */
  setLoggingLevel(session: string, level: LoggingLevel | undefined): Promise<void>;
  /**
   * Logs no single session can be given (outside calls, or during calls of several sessions), resource updates,
   * list changes; returns the unsubscribe.
   */
  on(listener: (event: DownstreamEvent) => void): () => void;
  /**
   * Declares `sampling` and `elicitation` to downstream servers from now on
   * (connections made before keep what they declared): call it before the first run.
   */
  enableForwarding(): void;
}

/** What `createDownstream` needs of a connection (structural: connection.ts stays its own). */
export interface PeerSource {
  readonly name: string;
  /** The SDK client while connected. */
  readonly client: Client | undefined;
  readonly requestTimeoutMs: number;
}

export interface DownstreamHub extends McpDownstream {
  /** The capabilities a new connection declares. */
  capabilities(): ClientCapabilities;
  emit(event: DownstreamEvent): void;
  /** A server (re)connected: it gets the logging level the sessions asked for. */
  connected(client: Client): void;
}

/** How much of a resources / templates / prompts listing is kept (the plugin's `maxToolsPerServer` and `maxListPages`). */
export interface DownstreamListLimits {
  readonly maxItems: number;
  readonly maxPages: number;
  /** Told when a listing was cut (the plugin logs an `MCP_LIST_TRUNCATED` warning). */
  readonly truncated?: (
    server: string,
    list: string,
    limit: 'maxToolsPerServer' | 'maxListPages',
    kept: number,
  ) => void;
}

const UNBOUNDED: DownstreamListLimits = { maxItems: Number.POSITIVE_INFINITY, maxPages: 100 };

export function createDownstream(
  sources: () => readonly PeerSource[],
  limits: DownstreamListLimits = UNBOUNDED,
): DownstreamHub {
  const listeners = new Set<(event: DownstreamEvent) => void>();
  const subscriptions = new Map<string, number>();
  const levels = new Map<string, LoggingLevel>();
  let forwarding = false;

  function peerOf(source: PeerSource): McpPeer | undefined {
    const client = source.client;
    const capabilities = client?.getServerCapabilities();
    if (!client || !capabilities) return undefined;
    const options = (signal?: AbortSignal) => ({ timeout: source.requestTimeoutMs, ...(signal ? { signal } : {}) });
    const key = (uri: string) => `${source.name}\n${uri}`;
    const bound = (list: string): PageBounds => ({
      ...limits,
      cut: (limit, kept) => limits.truncated?.(source.name, list, limit, kept),
    });
    return {
      name: source.name,
      capabilities,
      listResources: (signal) =>
        allPages(
          (cursor) => page(client, 'resources/list', 'ListResourcesResult', cursor, options(signal)),
          (page) => page.resources,
          bound('resources'),
        ),
      listResourceTemplates: (signal) =>
        allPages(
          (cursor) => page(client, 'resources/templates/list', 'ListResourceTemplatesResult', cursor, options(signal)),
          (page) => page.resourceTemplates,
          bound('resourceTemplates'),
        ),
      readResource: (params, signal) => client.readResource(params, options(signal)),
      async subscribe(uri, signal) {
        const count = subscriptions.get(key(uri)) ?? 0;
        if (count === 0) await client.subscribeResource({ uri }, options(signal));
        subscriptions.set(key(uri), count + 1);
      },
      async unsubscribe(uri, signal) {
        const count = subscriptions.get(key(uri)) ?? 0;
        if (count > 1) return void subscriptions.set(key(uri), count - 1);
        subscriptions.delete(key(uri));
        if (count === 1) await client.unsubscribeResource({ uri }, options(signal));
      },
      listPrompts: (signal) =>
        allPages(
          (cursor) => page(client, 'prompts/list', 'ListPromptsResult', cursor, options(signal)),
          (page) => page.prompts,
          bound('prompts'),
        ),
      getPrompt: (params, signal) => client.getPrompt(params, options(signal)),
      complete: (params, signal) => client.complete(params, options(signal)),
    };
  }

  const peers = () => sources().flatMap((source) => peerOf(source) ?? []);
  return {
    peers,
    peer: (name) => peers().find((peer) => peer.name === name),
    async setLoggingLevel(session, level) {
      if (level === undefined) levels.delete(session);
      else levels.set(session, level);
      const wanted = mostVerbose([...levels.values()]);
      if (!wanted) return;
      await Promise.all(
        sources().map((source) =>
          source.client?.getServerCapabilities()?.logging ? source.client.setLoggingLevel(wanted) : undefined,
        ),
      );
    },
    on(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    enableForwarding() {
      forwarding = true;
    },
    capabilities: () => (forwarding ? { ...FORWARDING_CAPABILITIES } : {}),
    emit(event) {
      for (const listener of listeners) listener(event);
    },
    connected(client) {
      const wanted = mostVerbose([...levels.values()]);
      if (wanted && client.getServerCapabilities()?.logging) void client.setLoggingLevel(wanted).catch(() => undefined); // a server that refuses the level just logs at its own
    },
  };
}

const SEVERITY: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

function mostVerbose(asked: readonly LoggingLevel[]): LoggingLevel | undefined {
  return asked.length ? SEVERITY[Math.min(...asked.map((level) => SEVERITY.indexOf(level)))] : undefined;
}

type PageSchemas = typeof specTypeSchemas;
type PageName = 'ListResourcesResult' | 'ListResourceTemplatesResult' | 'ListPromptsResult';

/**
 * One page of a list, as the server sent it. The v2 client's `listResources()` & co. walk every page (up to its own
 * cap) when called without a cursor, which would bypass `maxListPages`/`maxToolsPerServer`; a raw request is one page.
 */
function page<N extends PageName>(
  client: Client,
  method: string,
  result: N,
  cursor: string | undefined,
  options: RequestOptions,
) {
  const schema = specTypeSchemas[result] as PageSchemas[N];
  return client.request({ method, params: cursor ? { cursor } : {} }, schema, options) as Promise<
    StandardSchemaV1.InferOutput<PageSchemas[N]>
  >;
}

interface PageBounds {
  readonly maxItems: number;
  readonly maxPages: number;
  cut(limit: 'maxToolsPerServer' | 'maxListPages', kept: number): void;
}

/**
 * Every page of a paginated list, bounded: at most `maxItems` items (a server listing a million resources is cut
 * there) and `maxPages` pages (a server repeating its cursor does not loop forever); a cut is reported once.
 */
async function allPages<P extends { nextCursor?: string | undefined }, T>(
  fetch: (cursor?: string) => Promise<P>,
  items: (page: P) => T[],
  bounds: PageBounds,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page === bounds.maxPages) {
      bounds.cut('maxListPages', out.length);
      return out;
    }
    const result = await fetch(cursor);
    const listed = items(result);
    const room = bounds.maxItems - out.length;
    if (listed.length > room) {
      for (let i = 0; i < room; i++) out.push(listed[i]!);
      bounds.cut('maxToolsPerServer', out.length);
      return out;
    }
    for (const item of listed) out.push(item);
    cursor = result.nextCursor;
    if (cursor === undefined) return out;
  }
}
