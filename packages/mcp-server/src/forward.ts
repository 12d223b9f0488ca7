/**
 * One MCP session's side of forwarding: what a `tools/call` hands down to
 * the downstream server (`McpCallForwarding`: progress under the client's
 * token, the call's logs, sampling and elicitation on the call's own stream,
 * each only when the client asked for it or declared it), and logging:
 * `logging/setLevel` is kept for this session and passed on downstream (the
 * most verbose level of all sessions: each filters its own). A downstream
 * log reaches this session only through a call of this session (plugin-mcp
 * gives it to a call only while that call's session alone has calls in
 * flight on the server); logs outside calls are nobody's and reach no
 * session. What a call forwards goes through this session's notification
 * budget (throttle.ts).
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
import { callNotices, suppressedLine, tokenBucket } from './throttle.js';

export interface SessionForwarding {
  /**
   * The forwarding of one `tools/call` (its progress token, its stream, the client's capabilities),
   * and `flush`: await it before answering (it sends the held progress and the count of what the budget held
   * back), so no progress or log is sent after the result.
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
  // One budget for everything this session's calls forward, however many run at once.
  const bucket = tokenBucket();

  return {
    forCall(request, ctx) {
      const token = request.params._meta?.progressToken;
      const client = server.getClientCapabilities();
      const related = { relatedRequestId: ctx.mcpReq.id };
      const notices = callNotices({
        bucket,
        // a notification for a request whose client went away
        send: (notification: ServerNotification) => ctx.mcpReq.notify(notification).catch(() => undefined),
        ...(token !== undefined ? { token } : {}),
        suppressed: (count) => (passes(suppressedLine(count)) ? suppressedLine(count) : undefined),
      });
      const forwarding: McpCallForwarding = {
        session: options.sessionId,
        ...(token !== undefined ? { onProgress: (progress) => notices.progress(progress) } : {}),
        onLog: (params) => {
          if (passes(params)) notices.log(params);
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
      return { forwarding, flush: () => notices.flush() };
    },
    close() {
      if (level !== undefined) void downstream?.setLoggingLevel(options.sessionId, undefined).catch(() => undefined); // closing: a downstream already gone keeps no level
    },
  };
}
