/**
 * What flows from a downstream server back to the client of the call that
 * caused it: progress, log messages, `sampling/createMessage` and
 * `elicitation/create`. A front end (serve mcp) hands an `McpCallForwarding`
 * down with the call (`CallOptions.scope.mcp`); each connection keeps the
 * forwardings of its calls in flight and routes by them. A request that
 * arrives while calls of two front-end sessions are in flight on the same
 * server is refused rather than guessed; with no forwarded call in flight the
 * plugin's own handlers (gateway, CLI) answer, if any. A log message names
 * no request, so it reaches a call's client only while that client's session
 * alone has calls in flight on the server; a log that arrives outside calls,
 * or during calls of several sessions, is nobody's: it goes to the
 * `McpDownstream` listeners with resource and prompt changes, never to a
 * session.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type Client,
  type ClientCapabilities,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/client';
import type { ExecuteContext } from '@tool-search/kernel';
import type { McpClientHandlers, McpRequestContext } from './handlers.js';
import { coalesce, LIST_CHANGED_WINDOW_MS } from './coalesce.js';

/** Given by a front end with each call it forwards to an MCP tool. */
export interface McpCallForwarding {
  /** The front-end session the call came from (requests are never sent to another session's client). */
  readonly session: string;
  /** Set when the calling client asked for progress (it sent a `progressToken`). */
  readonly onProgress?: (progress: Progress) => void;
  /** Log messages of the called server while the call runs, `logger` already tagged with the server name. */
  readonly onLog?: (params: LoggingMessageNotification['params']) => void;
  /** Set when the calling client declared `sampling`. */
  readonly createMessage?: (
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ) => Promise<CreateMessageResult>;
  /** Set when the calling client declared `elicitation`. */
  readonly elicitInput?: (params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
}

declare module '@tool-search/kernel' {
  interface CallScope {
    /** Where a downstream MCP server's progress, logs and requests for this call go. */
    readonly mcp?: McpCallForwarding;
  }
}

/** What a downstream server says that belongs to no one front-end session (a `log` here was sent to no client). */
export type DownstreamEvent =
  | { readonly type: 'log'; readonly server: string; readonly params: LoggingMessageNotification['params'] }
  | { readonly type: 'resource-updated'; readonly server: string; readonly uri: string }
  | { readonly type: 'resources-changed'; readonly server: string }
  | { readonly type: 'prompts-changed'; readonly server: string };

/** The capabilities Tool Search declares to downstream servers once a front end forwards requests. */
export const FORWARDING_CAPABILITIES: ClientCapabilities = Object.freeze({ sampling: {}, elicitation: {} });

/** `logger` of a forwarded log message: `<server>` or `<server>:<logger>`. */
export function taggedLogger(server: string, logger: string | undefined): string {
  return logger ? `${server}:${logger}` : server;
}

/** The forwardings of one connection's calls in flight, and the handlers that route by them. */
export class CallForwarding {
  private readonly inFlight = new Map<McpCallForwarding, number>();

  constructor(
    private readonly server: string,
    private readonly emit: (event: DownstreamEvent) => void,
  ) {}

  /** Registers a call for its duration; returns the SDK request options (progress) and the end of the call. */
  begin(forwarding: McpCallForwarding | undefined): {
    readonly options: { onprogress?: (progress: Progress) => void };
    end(): void;
  } {
    if (!forwarding) return { options: {}, end: () => {} };
    this.inFlight.set(forwarding, (this.inFlight.get(forwarding) ?? 0) + 1);
    const onprogress = forwarding.onProgress;
    return {
      options: onprogress ? { onprogress } : {},
      end: () => {
        const left = (this.inFlight.get(forwarding) ?? 1) - 1;
        if (left > 0) this.inFlight.set(forwarding, left);
        else this.inFlight.delete(forwarding);
      },
    };
  }

  /**
   * Sets the client's notification handlers, and its request handlers when it declared `capabilities`: a request
   * during a forwarded call goes to that call's client; with none in flight, to `fallback` (the plugin's handlers).
   */
  install(
    client: Client,
    capabilities: ClientCapabilities,
    fallback?: McpClientHandlers,
    calls: () => readonly ExecuteContext[] = () => [],
  ): void {
    const context = (signal: AbortSignal): McpRequestContext => ({ server: this.server, signal, calls: calls() });
    // A log names no request: it goes to a session only while that session alone has calls in flight here.
    client.setNotificationHandler('notifications/message', ({ params }) => {
      const tagged = { ...params, logger: taggedLogger(this.server, params.logger) };
      const sessions = this.sessions();
      const onLog = sessions.length === 1 ? sessions[0]!.onLog : undefined;
      if (onLog) onLog(tagged);
      else this.emit({ type: 'log', server: this.server, params: tagged });
    });
    client.setNotificationHandler('notifications/resources/updated', ({ params }) =>
      this.emit({ type: 'resource-updated', server: this.server, uri: params.uri }),
    );
    // A flood of list_changed reaches every session's client at most once per window (plus one trailing).
    const resources = coalesce(
      () => this.emit({ type: 'resources-changed', server: this.server }),
      LIST_CHANGED_WINDOW_MS,
    );
    const prompts = coalesce(() => this.emit({ type: 'prompts-changed', server: this.server }), LIST_CHANGED_WINDOW_MS);
    client.setNotificationHandler('notifications/resources/list_changed', () => resources());
    client.setNotificationHandler('notifications/prompts/list_changed', () => prompts());
    if (capabilities.sampling) {
      client.setRequestHandler('sampling/createMessage', (request, ctx) =>
        this.answer(
          'sampling/createMessage',
          'sampling',
          (f) => f.createMessage,
          fallback?.createMessage,
          request.params,
          ctx.mcpReq.signal,
          context,
        ),
      );
    }
    if (capabilities.elicitation) {
      client.setRequestHandler('elicitation/create', (request, ctx) =>
        this.answer(
          'elicitation/create',
          'elicitation',
          (f) => f.elicitInput,
          fallback?.elicitInput,
          request.params,
          ctx.mcpReq.signal,
          context,
        ),
      );
    }
  }

  /** A server-to-client request: the forwarded call's client first, then the plugin's own handler, else refused. */
  private answer<P, R>(
    method: string,
    capability: string,
    forwarded: (forwarding: McpCallForwarding) => ((params: P, signal: AbortSignal) => Promise<R>) | undefined,
    own: ((params: P, context: McpRequestContext) => Promise<R>) | undefined,
    params: P,
    signal: AbortSignal,
    context: (signal: AbortSignal) => McpRequestContext,
  ): Promise<R> {
    const session = this.target(method, own !== undefined);
    const target = session ? forwarded(session) : undefined;
    if (target) return target(params, signal);
    if (own) return own(params, context(signal));
    throw refused(`the client calling through Tool Search did not declare the ${capability} capability`);
  }

  /** One forwarding per front-end session with a call in flight (the latest call of each). */
  private sessions(): McpCallForwarding[] {
    const bySession = new Map<string, McpCallForwarding>();
    for (const forwarding of this.inFlight.keys()) bySession.set(forwarding.session, forwarding);
    return [...bySession.values()];
  }

  /** The one session to ask; none when no forwarded call is in flight and the plugin can answer itself. */
  private target(method: string, canAnswer: boolean): McpCallForwarding | undefined {
    const sessions = this.sessions();
    if (sessions.length === 0 && canAnswer) return undefined;
    if (sessions.length === 0)
      throw refused(
        `${method} from MCP server "${this.server}" came outside any forwarded tool call: there is no client to ask`,
      );
    if (sessions.length > 1) {
      throw refused(
        `${method} from MCP server "${this.server}" came while calls of ${sessions.length} clients are in flight; refused rather than sent to the wrong client`,
      );
    }
    return sessions[0]!;
  }
}

function refused(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidRequest, message);
}
