/**
 * Resources, resource templates, prompts and completions of the downstream
 * servers, aggregated for one MCP session under the names of namespace.ts.
 * Policy: a server's resources, prompts and completions are served exactly
 * when at least one of its tools is in the session's effective catalog, so a
 * server whose tools are all denied shows nothing. Downstream answers and
 * JSON-RPC errors pass through as the server sent them; one failing server
 * leaves the lists of the others intact.
 */
import {
  ProtocolError as McpError,
  ProtocolErrorCode as McpErrorCode,
  UriTemplate,
  type Server,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import type { Logger } from '@tool-search/kernel';
import type { McpDownstream, McpPeer } from '@tool-search/plugin-mcp';
import { parsePromptName, parseResourceUri, promptName, resourceUri } from './namespace.js';
import { echoed } from './echo.js';
import { errorMessage } from '@tool-search/kernel';

/** MCP's "resource not found" (spec, resources: error handling). */
export const RESOURCE_NOT_FOUND = -32002;

/** The methods served here, each answered from its params and the request's abort signal. */
export type AggregateMethod =
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read'
  | 'resources/subscribe'
  | 'resources/unsubscribe'
  | 'prompts/list'
  | 'prompts/get'
  | 'completion/complete';
// biome-ignore lint/suspicious/noExplicitAny: each method's params are validated by the SDK serving it
export type AggregateHandler = (params: any, signal: AbortSignal) => Promise<object>;

/** Where the handlers go: a session's `Server` (2025-era sessions, `serveAggregate`) or a request's (2026-07-28, modern.ts). */
export type AggregateRegister = (method: AggregateMethod, handler: AggregateHandler) => void;

export interface AggregateOptions extends AggregateCore {
  readonly server: Server;
}

interface Routed {
  readonly peer: McpPeer;
  readonly original: string;
}

export function serveAggregate(options: AggregateOptions): { close(): Promise<void> } {
  const { server } = options;
  const register: AggregateRegister = (method, handler) =>
    server.setRequestHandler(
      method as 'resources/list',
      (request, ctx) => handler(request.params ?? {}, ctx.mcpReq.signal) as never,
    );
  const served = registerAggregate(options, register, true);
  const unsubscribe = options.downstream.on((event) => {
    if (!options.visible().has(event.server)) return;
    if (event.type === 'resource-updated') {
      for (const uri of served.subscribers(event.server, event.uri))
        void server.sendResourceUpdated({ uri }).catch(() => undefined); // a client gone or not connected yet misses a notification it cannot receive
    }
    if (event.type === 'resources-changed') void server.sendResourceListChanged().catch(() => undefined); // as above: a notification to a client that is gone
    if (event.type === 'prompts-changed') void server.sendPromptListChanged().catch(() => undefined); // as above: a notification to a client that is gone
  });
  return {
    async close() {
      unsubscribe();
      await served.close();
    },
  };
}

export interface AggregateCore {
  readonly downstream: McpDownstream;
  /** Servers whose tools are in this caller's effective catalog. */
  readonly visible: () => ReadonlySet<string>;
  /** Whether a resource is a file of a skill (skills.ts), and one policy hides: then it is not found. */
  readonly skillFile?: (server: string, uri: string) => 'visible' | 'hidden' | undefined;
  readonly logger: Logger;
}

export interface RegisteredAggregate {
  /** The URIs this session subscribed to that name `uri` of `server`. */
  subscribers(server: string, uri: string): Iterable<string>;
  /** Drops this session's downstream subscriptions. */
  close(): Promise<void>;
}

/** Registers the aggregated resources, prompts and completions; `subscriptions`: `resources/subscribe` too (2025-era sessions). */
export function registerAggregate(
  options: AggregateCore,
  register: AggregateRegister,
  subscriptions: boolean,
): RegisteredAggregate {
  const { downstream, logger } = options;
  const peers = (capability: keyof ServerCapabilities) =>
    downstream.peers().filter((peer) => options.visible().has(peer.name) && peer.capabilities[capability]);
  /** This session's subscriptions: `<server>\n<uri>` → the URIs the client used. */
  const subscribed = new Map<string, { peer: McpPeer; original: string; uris: Set<string> }>();

  async function each<T>(
    capability: keyof ServerCapabilities,
    list: (peer: McpPeer) => Promise<T[]>,
    signal: AbortSignal,
  ): Promise<{ peer: McpPeer; items: T[] }[]> {
    return Promise.all(
      peers(capability).map(async (peer) => {
        try {
          return { peer, items: await list(peer) };
        } catch (error) {
          if (signal.aborted) throw error;
          logger.warn(`MCP server "${peer.name}" failed to list its ${capability}: ${errorMessage(error)}`, {
            cause: error,
          });
          return { peer, items: [] };
        }
      }),
    );
  }

  /** A namespaced URI names its server; an original one must belong to exactly one visible server. */
  async function routeUri(uri: string, signal: AbortSignal): Promise<Routed> {
    const candidates = peers('resources');
    const parsed = parseResourceUri(uri);
    const named = parsed && candidates.find((peer) => peer.name === parsed.server);
    if (parsed && named) return { peer: named, original: parsed.original };
    // A server policy hides is not asked at all, not even for a namespaced name of its own.
    if (parsed && downstream.peer(parsed.server)) throw notFound(uri);
    if (candidates.length === 1) return { peer: candidates[0]!, original: uri };
    const owners: McpPeer[] = [];
    for (const peer of candidates) {
      const [resources, templates] = await Promise.all([
        peer.listResources(signal).catch(() => []),
        peer.listResourceTemplates(signal).catch(() => []),
      ]);
      if (
        resources.some((r) => r.uri === uri) ||
        templates.some((t) => new UriTemplate(t.uriTemplate).match(uri) !== null)
      )
        owners.push(peer);
    }
    if (owners.length === 1) return { peer: owners[0]!, original: uri };
    if (owners.length > 1)
      throw ambiguous(
        'resource',
        uri,
        owners.map((peer) => resourceUri(peer.name, uri)),
      );
    throw notFound(uri);
  }

  async function routePrompt(name: string, signal: AbortSignal): Promise<Routed> {
    const candidates = peers('prompts');
    const parsed = parsePromptName(name);
    const named = parsed && candidates.find((peer) => peer.name === parsed.server);
    if (parsed && named) return { peer: named, original: parsed.original };
    if (parsed && downstream.peer(parsed.server)) throw unknownPrompt(name);
    const owners: McpPeer[] = [];
    for (const peer of candidates)
      if ((await peer.listPrompts(signal).catch(() => [])).some((p) => p.name === name)) owners.push(peer);
    if (owners.length === 1) return { peer: owners[0]!, original: name };
    if (owners.length > 1)
      throw ambiguous(
        'prompt',
        name,
        owners.map((peer) => promptName(peer.name, name)),
      );
    throw unknownPrompt(name);
  }

  register('resources/list', async (_params, signal) => ({
    resources: (await each('resources', (peer) => peer.listResources(signal), signal)).flatMap(({ peer, items }) =>
      items
        .filter((resource) => options.skillFile?.(peer.name, resource.uri) !== 'hidden')
        .map((resource) => ({
          ...resource,
          uri: resourceUri(peer.name, resource.uri),
        })),
    ),
  }));
  register('resources/templates/list', async (_params, signal) => ({
    resourceTemplates: (await each('resources', (peer) => peer.listResourceTemplates(signal), signal)).flatMap(
      ({ peer, items }) =>
        items.map((template) => ({
          ...template,
          uriTemplate: resourceUri(peer.name, template.uriTemplate),
        })),
    ),
  }));
  register('resources/read', async (params: { uri: string }, signal) => {
    const { peer, original } = await routeUri(params.uri, signal);
    const skillFile = options.skillFile?.(peer.name, original);
    if (skillFile === 'hidden') throw notFound(params.uri);
    try {
      const read = await peer.readResource({ ...params, uri: original }, signal);
      // A skill file is named as asked for: a skills client matches contents to the entry's (namespaced) URI.
      return skillFile ? renamedContents(read, original, params.uri) : read;
    } catch (error) {
      // The v2 client renumbers a server's "not found" (-32002 before 2026-07-28, -32602 since) into one error class;
      // a 2025-era client of serve mcp gets the code of its era, naming the URI it asked for.
      // Imported here: a peer exists only once plugin-mcp (and the MCP client) is loaded, so this costs nothing then,
      // and serve mcp without MCP servers never loads the client.
      const { isResourceNotFound } = await import('@tool-search/plugin-mcp');
      if (isResourceNotFound(error)) throw notFound(params.uri);
      throw error;
    }
  });
  if (subscriptions) {
    register('resources/subscribe', async (params: { uri: string }, signal) => {
      const { peer, original } = await routeUri(params.uri, signal);
      if (options.skillFile?.(peer.name, original) === 'hidden') throw notFound(params.uri);
      if (!peer.capabilities.resources?.subscribe)
        throw new McpError(
          McpErrorCode.MethodNotFound,
          `MCP server "${peer.name}" does not support resources/subscribe`,
        );
      const key = `${peer.name}\n${original}`;
      const entry = subscribed.get(key);
      if (entry) entry.uris.add(params.uri);
      else {
        await peer.subscribe(original, signal);
        subscribed.set(key, { peer, original, uris: new Set([params.uri]) });
      }
      return {};
    });
    register('resources/unsubscribe', async (params: { uri: string }, signal) => {
      const { peer, original } = await routeUri(params.uri, signal);
      const key = `${peer.name}\n${original}`;
      const entry = subscribed.get(key);
      entry?.uris.delete(params.uri);
      if (entry && entry.uris.size === 0) {
        subscribed.delete(key);
        await peer.unsubscribe(original, signal);
      }
      return {};
    });
  }

  register('prompts/list', async (_params, signal) => ({
    prompts: (await each('prompts', (peer) => peer.listPrompts(signal), signal)).flatMap(({ peer, items }) =>
      items.map((prompt) => ({
        ...prompt,
        name: promptName(peer.name, prompt.name),
      })),
    ),
  }));
  register('prompts/get', async (params: { name: string }, signal) => {
    const { peer, original } = await routePrompt(params.name, signal);
    return peer.getPrompt({ ...params, name: original } as Parameters<McpPeer['getPrompt']>[0], signal);
  });
  register(
    'completion/complete',
    async (
      params: {
        ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
      },
      signal,
    ) => {
      const { ref } = params;
      const routed = ref.type === 'ref/prompt' ? await routePrompt(ref.name, signal) : await routeUri(ref.uri, signal);
      if (!routed.peer.capabilities.completions) return { completion: { values: [], total: 0, hasMore: false } };
      const target = ref.type === 'ref/prompt' ? { ...ref, name: routed.original } : { ...ref, uri: routed.original };
      return routed.peer.complete({ ...params, ref: target } as Parameters<McpPeer['complete']>[0], signal);
    },
  );

  return {
    subscribers: (server, uri) => subscribed.get(`${server}\n${uri}`)?.uris ?? [],
    async close() {
      const entries = [...subscribed.values()];
      subscribed.clear();
      await Promise.all(entries.map(({ peer, original }) => peer.unsubscribe(original).catch(() => undefined))); // closing: a downstream already gone holds no subscription
    },
  };
}

function renamedContents<R extends { contents: Array<{ uri: string }> }>(read: R, original: string, asked: string): R {
  return { ...read, contents: read.contents.map((item) => (item.uri === original ? { ...item, uri: asked } : item)) };
}

function notFound(uri: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${echoed(uri)}`, {
    uri: echoed(uri),
  });
}

function unknownPrompt(name: string): McpError {
  return new McpError(McpErrorCode.InvalidParams, `Unknown prompt: ${echoed(name)}`, {
    name: echoed(name),
  });
}

function ambiguous(kind: string, name: string, namespaced: string[]): McpError {
  return new McpError(
    McpErrorCode.InvalidParams,
    `The ${kind} "${echoed(name)}" exists on several servers; use one of ${namespaced.join(', ')}`,
    {
      candidates: namespaced,
    },
  );
}
