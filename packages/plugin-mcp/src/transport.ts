/**
 * Opens an SDK `Client` on one server config: stdio for `command`, Streamable
 * HTTP for `url`, and the older HTTP+SSE transport when the server answers the
 * Streamable HTTP POST with a 4xx (the fallback the MCP spec describes).
 */
import {
  Client,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type FetchLike,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import { isHttpConfig, type McpProtocol, type McpServerConfig } from './options.js';
import { failureReason } from './connection-errors.js';
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
  /** Called when the server's tool list changed (`notifications/tools/list_changed`, or a modern server's `subscriptions/listen` stream). */
  readonly onToolsChanged?: (client: Client) => void;
}

/** The protocol versions Tool Search speaks with a downstream server, newest first. */
export const MODERN_PROTOCOL = '2026-07-28';
export const LEGACY_PROTOCOL = '2025-11-25';

/** The SDK's negotiation mode for a server's `protocol` setting. */
export function negotiationMode(protocol: McpProtocol | undefined): VersionNegotiationMode {
  if (protocol === undefined || protocol === 'auto') return 'auto';
  return protocol === LEGACY_PROTOCOL ? 'legacy' : { pin: protocol };
}

const CLIENT_INFO = { name: 'tool-search', version: '0.1.0' } as const;
/** How long a server that ended at start gets for the rest of its stderr to be read (it has exited: this is quick). */
const STDERR_SETTLE_MS = 1_000;

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
    let client: Client;
    try {
      client = await connect(transport, config.protocol, options, reportPid);
    } catch (error) {
      // The server ended while we wrote to it: its stderr (why it ended) may still be in the pipe.
      if (failureReason(error, false) === 'exit') await transport.settled(STDERR_SETTLE_MS);
      throw error;
    }
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
    const client = await connect(transport, config.protocol, options);
    return { client, kind: 'streamable-http', pid: null, close: () => closeHttpSession(client, transport) };
  } catch (error) {
    // HTTP+SSE is 2024-era only: a server pinned to a newer version never gets there.
    if (
      !isLegacyServerAnswer(error) ||
      options.signal.aborted ||
      (config.protocol !== undefined && config.protocol !== 'auto' && config.protocol !== LEGACY_PROTOCOL)
    )
      throw error;
    const client = await connect(new SSEClientTransport(url, init), LEGACY_PROTOCOL, options);
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
  await Promise.race([transport.terminateSession().catch(() => {}), gaveUp]); // the server ends the session on its own when DELETE fails
  clearTimeout(timer);
  await client.close();
}

type AnyTransport = GroupStdioTransport | StreamableHTTPClientTransport | SSEClientTransport;

/** The MCP protocol version `client` negotiated with its server, once connected. */
export function protocolVersionOf(client: Client): string | undefined {
  return client.getNegotiatedProtocolVersion();
}

/**
 * Connects, failing fast on the first transport error before initialization
 * completes (a server writing garbage to stdout would otherwise just time out).
 */
async function connect(
  transport: AnyTransport,
  protocol: McpProtocol | undefined,
  options: OpenOptions,
  beforeClose?: () => void,
): Promise<Client> {
  const onToolsChanged = options.onToolsChanged;
  const client = new Client(CLIENT_INFO, {
    capabilities: options.capabilities ?? {},
    // A stdio server silent on the probe is a legacy one. The probe also waits for the server to start (slow on a
    // loaded machine), so it gets most of the connect budget; the fallback handshake of such a server is quick.
    versionNegotiation: {
      mode: negotiationMode(protocol),
      probe: { timeoutMs: Math.max(1, Math.floor((options.timeoutMs * 3) / 4)) },
    },
    // Tool lists are read (and cached) by list-tools.ts; the SDK's list-changed plumbing only tells us to drop ours.
    // `debounceMs: 0` calls back synchronously: the notification arrives before the answer of the call that caused it.
    ...(onToolsChanged
      ? { listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => onToolsChanged(client) } } }
      : {}),
  });
  options.prepare(client);
  let failEarly: ((error: Error) => void) | undefined;
  const early = new Promise<never>((_, reject) => {
    failEarly = reject;
  });
  early.catch(() => {}); // observed here so it is no unhandled rejection; the race below reads it
  client.onerror = (error) => {
    if (!isLateProbeAnswer(error)) failEarly?.(error);
  };
  // The version probe does not stop at the signal: the connect does, so the child is closed now, not after its timeout.
  const onAbort = () =>
    failEarly?.(options.signal.reason instanceof Error ? options.signal.reason : new Error('connect aborted'));
  if (options.signal.aborted) onAbort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  // Before the probe hands a stdio transport to the client, its errors (garbage on stdout) reach only the transport's
  // own handler. (An HTTP probe's refused POST is reported there too, and is the legacy signal, not a failure.)
  if (transport instanceof GroupStdioTransport) transport.onerror = (error) => failEarly?.(error);
  try {
    await Promise.race([client.connect(transport, { signal: options.signal, timeout: options.timeoutMs }), early]);
    client.onerror = (error) => {
      if (!isLateProbeAnswer(error)) options.onError(error);
    };
    return client;
  } catch (error) {
    beforeClose?.();
    // Closing a stuck child can take seconds (stdin end, SIGTERM, SIGKILL): do not hold the listing for it.
    // During the version probe the transport is not yet the client's: close it too, or a stuck child outlives us.
    options.track(Promise.all([client.close().catch(() => {}), transport.close().catch(() => {})]).then(() => {}));
    throw error;
  } finally {
    failEarly = undefined;
    options.signal.removeEventListener('abort', onAbort);
  }
}

/** The answer to a `server/discover` probe that timed out (a slow legacy server): harmless, the handshake went on without it. */
function isLateProbeAnswer(error: Error): boolean {
  return /unknown message ID/i.test(error.message) && error.message.includes('"server-discover-probe-');
}

/** A 4xx to the initialize POST means "not a Streamable HTTP endpoint": try SSE. */
function isLegacyServerAnswer(error: unknown): boolean {
  return (
    error instanceof SdkHttpError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 401 &&
    error.status !== 403
  );
}
