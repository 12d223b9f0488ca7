/**
 * One MCP session's side of forwarding: what a `tools/call` hands down to
 * the downstream server (`McpCallForwarding`: progress under the client's
 * token, the call's logs, sampling and elicitation on the call's own stream,
 * each only when the client asked for it or declared it), and logging:
 * `logging/setLevel` is kept for this session and passed on downstream (the
 * most verbose level of all sessions: each filters its own), and
 * downstream log messages outside a call reach this session when their
 * server is visible to it (policy) and their level passes.
 */
import type {
  CallToolRequest,
  CreateMessageResult,
  LoggingLevel,
  LoggingMessageNotification,
  Server,
  ServerContext,
  ServerNotification,
} from '@modelcontextprotocol/server';
import type { Logger } from '@tool-search/kernel';
import type { McpCallForwarding, McpDownstream } from '@tool-search/plugin-mcp';

export interface SessionForwarding {
  /**
   * The forwarding of one `tools/call` (its progress token, its stream, the client's capabilities),
   * and `flush`: await it before answering, so no progress or log is sent after the result.
   */
  forCall(
    request: Pick<CallToolRequest, 'params'>,
    ctx: ServerContext,
  ): { forwarding: McpCallForwarding; flush(): Promise<void> };
  close(): void;
}

export interface SessionForwardingOptions {
  readonly server: Server;
  readonly sessionId: string;
  readonly downstream?: McpDownstream;
  /** Servers whose tools are in this session's effective catalog. */
  readonly visible: () => ReadonlySet<string>;
  readonly logger: Logger;
}

/** MCP's log levels, least severe first (RFC 5424 order, as the spec lists them). */
const LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];
const SEVERITY = new Map(LEVELS.map((level, index) => [level, index]));

export function createSessionForwarding(options: SessionForwardingOptions): SessionForwarding {
  const { server, downstream } = options;
  let level: LoggingLevel | undefined;
  const passes = (params: LoggingMessageNotification['params']) =>
    level === undefined || (SEVERITY.get(params.level) ?? 0) >= (SEVERITY.get(level) ?? 0);

  if (downstream) {
    server.setRequestHandler('logging/setLevel', async (request) => {
      level = request.params.level;
      await downstream
        .setLoggingLevel(options.sessionId, level)
        .catch((error: unknown) => options.logger.warn(`logging/setLevel downstream failed: ${String(error)}`));
      return {};
    });
  }
  const unsubscribe = downstream?.on((event) => {
    if (event.type !== 'log' || !options.visible().has(event.server) || !passes(event.params)) return;
    void server.notification({ method: 'notifications/message', params: event.params }).catch(() => undefined); // a log line for a client that is gone
  });

  return {
    forCall(request, ctx) {
      const token = request.params._meta?.progressToken;
      const client = server.getClientCapabilities();
      const related = { relatedRequestId: ctx.mcpReq.id };
      const pending = new Set<Promise<void>>();
      const notify = (notification: ServerNotification) => {
        const sent: Promise<void> = ctx.mcpReq
          .notify(notification)
          // progress for a request whose client went away
          .catch(() => undefined)
          .finally(() => pending.delete(sent));
        pending.add(sent);
      };
      const forwarding: McpCallForwarding = {
        session: options.sessionId,
        ...(token !== undefined
          ? {
              onProgress: (progress) =>
                notify({ method: 'notifications/progress', params: { ...progress, progressToken: token } }),
            }
          : {}),
        onLog: (params) => {
          if (passes(params)) notify({ method: 'notifications/message', params });
        },
        ...(client?.sampling
          ? {
              createMessage: async (params, signal) =>
                (await server.createMessage(params as Parameters<typeof server.createMessage>[0], {
                  signal,
                  ...related,
                })) as CreateMessageResult,
            }
          : {}),
        ...(client?.elicitation
          ? { elicitInput: (params, signal) => server.elicitInput(params, { signal, ...related }) }
          : {}),
      };
      return { forwarding, flush: async () => void (await Promise.all([...pending])) };
    },
    close() {
      unsubscribe?.();
      if (level !== undefined) void downstream?.setLoggingLevel(options.sessionId, undefined).catch(() => undefined); // closing: a downstream already gone keeps no level
    },
  };
}
