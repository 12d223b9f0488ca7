/**
 * What Tool Search answers when a downstream server asks something of its
 * client: `sampling/createMessage` and `elicitation/create` go to the
 * plugin's handlers (the gateway and CLI configure them: sampling through the
 * configured provider, elicitation through the approvals prompt), and
 * `roots/list` lists the configured roots (the workspace). A capability is
 * declared only when it is handled; a request for anything else is refused
 * with a message that says what is missing.
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
  type Root,
} from '@modelcontextprotocol/client';
import type { ExecuteContext } from '@tool-search/kernel';

/** Who asks, the request's own cancellation, and the calls that may have caused it. */
export interface McpRequestContext {
  readonly server: string;
  readonly signal: AbortSignal;
  /** The kernel contexts (run, call id, caller's scope) of this server's tool calls in flight: usually the one that asked. */
  readonly calls: readonly ExecuteContext[];
}

/** Plugin-level answers to server-to-client requests (a front end may route per call instead; see forwarding). */
export interface McpClientHandlers {
  /** Answers `sampling/createMessage`. */
  readonly createMessage?: (
    params: CreateMessageRequest['params'],
    context: McpRequestContext,
  ) => Promise<CreateMessageResult>;
  /** Answers `elicitation/create` (form mode; omitted fields get the schema's defaults). */
  readonly elicitInput?: (params: ElicitRequest['params'], context: McpRequestContext) => Promise<ElicitResult>;
}

/** The capabilities a client with these handlers and roots declares. */
export function handlerCapabilities(
  handlers: McpClientHandlers | undefined,
  roots: readonly Root[] | undefined,
): ClientCapabilities {
  return {
    ...(handlers?.createMessage ? { sampling: {} } : {}),
    ...(handlers?.elicitInput ? { elicitation: { form: { applyDefaults: true } } } : {}),
    ...(roots?.length ? { roots: { listChanged: false } } : {}),
  };
}

/** Sets the request handlers on a client created with `handlerCapabilities(handlers, roots)`. */
export function installHandlers(
  client: Client,
  server: string,
  handlers: McpClientHandlers | undefined,
  roots: readonly Root[] | undefined,
  calls: () => readonly ExecuteContext[],
): void {
  const { createMessage, elicitInput } = handlers ?? {};
  const context = (signal: AbortSignal): McpRequestContext => ({ server, signal, calls: calls() });
  // On a 2026-07-28 connection the SDK answers a tool call's `input_required` requests through these same handlers.
  if (createMessage)
    client.setRequestHandler('sampling/createMessage', (request, ctx) =>
      createMessage(request.params, context(ctx.mcpReq.signal)),
    );
  if (elicitInput)
    client.setRequestHandler('elicitation/create', (request, ctx) =>
      elicitInput(request.params, context(ctx.mcpReq.signal)),
    );
  if (roots?.length) client.setRequestHandler('roots/list', () => ({ roots: [...roots] }));
  client.fallbackRequestHandler = async (request) => {
    throw new ProtocolError(ProtocolErrorCode.MethodNotFound, refusal(request.method));
  };
}

function refusal(method: string): string {
  const what =
    method === 'sampling/createMessage'
      ? 'sampling: no sampling handler is configured (the gateway samples through its provider)'
      : method === 'elicitation/create'
        ? 'elicitation: no elicitation handler is configured (the CLI and gateway ask through the approvals prompt)'
        : method === 'roots/list'
          ? 'roots: no workspace is configured'
          : `"${method}"`;
  return `Tool Search does not answer ${what}; the request is declined`;
}
