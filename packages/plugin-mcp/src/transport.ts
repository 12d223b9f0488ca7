/**
 * Opens an SDK `Client` on one server config: stdio for `command`, Streamable
 * HTTP for `url`, and the older HTTP+SSE transport when the server answers the
 * Streamable HTTP POST with a 4xx (the fallback the MCP spec describes).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { isHttpConfig, type McpServerConfig } from './options.js';
import { GroupStdioTransport } from './stdio-transport.js';

export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

export interface OpenedClient {
  readonly client: Client;
  readonly kind: TransportKind;
  /** The child process id (stdio only). */
  readonly pid: number | null;
  /** Ends the session: stdin close then SIGTERM/SIGKILL to the child's process group, DELETE of the HTTP session. */
  close(): Promise<void>;
}

export interface OpenOptions {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** What the client declares (sampling, elicitation when a front end forwards them). */
  readonly capabilities?: ClientCapabilities;
  /** Grace period of a stdio server's process group after stdin closes and after SIGTERM. */
  readonly shutdownGraceMs: number;
  /** Called before connecting, so handlers see every message (list_changed, close). */
  readonly prepare: (client: Client) => void;
  /** Receives the server's stderr (stdio only). */
  readonly onStderr: (chunk: string) => void;
  /** The child pid, reported as soon as it is known, success or not (stdio only). */
  readonly onPid: (pid: number) => void;
  /** Transport errors after initialization (a stray line on stdout, a dropped stream). */
  readonly onError: (error: Error) => void;
  /** Receives the close of a client that failed to connect, so shutdown can wait for it. */
  readonly track: (closing: Promise<void>) => void;
  /** The fetch HTTP transports use (the OAuth wrapper). */
  readonly fetch?: FetchLike;
}

const CLIENT_INFO = { name: 'tool-search', version: '0.1.0' } as const;

export async function openClient(config: McpServerConfig, options: OpenOptions): Promise<OpenedClient> {
  if (!isHttpConfig(config)) {
    const transport = new GroupStdioTransport({
      command: config.command,
      ...(config.args ? { args: config.args } : {}),
      ...(config.env ? { env: config.env } : {}),
      ...(config.cwd ? { cwd: config.cwd } : {}),
      graceMs: options.shutdownGraceMs,
      onStderr: options.onStderr,
    });
    const reportPid = () => {
      if (transport.pid !== null) options.onPid(transport.pid);
    };
    const client = await connect(transport, options, reportPid);
    reportPid();
    // `client.close()` closes the transport, which resolves once the whole process group is gone.
    return { client, kind: 'stdio', pid: transport.pid, close: () => client.close() };
  }
  const url = new URL(config.url);
  const init = {
    ...(config.headers ? { requestInit: { headers: { ...config.headers } } } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  try {
    const transport = new StreamableHTTPClientTransport(url, init);
    const client = await connect(transport, options);
    return { client, kind: 'streamable-http', pid: null, close: () => closeHttpSession(client, transport) };
  } catch (error) {
    if (!isLegacyServerAnswer(error) || options.signal.aborted) throw error;
    const client = await connect(new SSEClientTransport(url, init), options);
    return { client, kind: 'sse', pid: null, close: () => client.close() };
  }
}

const SESSION_DELETE_TIMEOUT_MS = 1_000;

/** Tells the server the session is over (best effort, bounded), then closes locally. */
async function closeHttpSession(client: Client, transport: StreamableHTTPClientTransport): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, SESSION_DELETE_TIMEOUT_MS);
  });
  await Promise.race([transport.terminateSession().catch(() => {}), gaveUp]);
  clearTimeout(timer);
  await client.close();
}

type AnyTransport = GroupStdioTransport | StreamableHTTPClientTransport | SSEClientTransport;

/** The protocol version each client's `initialize` settled on (the SDK hands it to the transport only). */
const negotiated = new WeakMap<Client, string>();

/** The MCP protocol version `client` negotiated with its server, once connected. */
export function protocolVersionOf(client: Client): string | undefined {
  return negotiated.get(client);
}

/**
 * Connects, failing fast on the first transport error before initialization
 * completes (a server writing garbage to stdout would otherwise just time out).
 */
async function connect(transport: AnyTransport, options: OpenOptions, beforeClose?: () => void): Promise<Client> {
  const client = new Client(CLIENT_INFO, { capabilities: options.capabilities ?? {} });
  options.prepare(client);
  // The SDK tells the transport the negotiated version (`setProtocolVersion`, when it has one); keep it for status().
  const versioned = transport as Transport;
  const setVersion = versioned.setProtocolVersion?.bind(transport);
  versioned.setProtocolVersion = (version: string) => {
    negotiated.set(client, version);
    setVersion?.(version);
  };
  let failEarly: ((error: Error) => void) | undefined;
  const early = new Promise<never>((_, reject) => {
    failEarly = reject;
  });
  early.catch(() => {});
  client.onerror = (error) => failEarly?.(error);
  try {
    await Promise.race([client.connect(transport, { signal: options.signal, timeout: options.timeoutMs }), early]);
    client.onerror = options.onError;
    return client;
  } catch (error) {
    beforeClose?.();
    // Closing a stuck child can take seconds (stdin end, SIGTERM, SIGKILL): do not hold the listing for it.
    options.track(client.close().catch(() => {}));
    throw error;
  } finally {
    failEarly = undefined;
  }
}

/** A 4xx to the initialize POST means "not a Streamable HTTP endpoint": try SSE. */
function isLegacyServerAnswer(error: unknown): boolean {
  return error instanceof StreamableHTTPError && typeof error.code === 'number' && error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403;
}
