/**
 * What Tool Search answers when a downstream server asks something of its
 * client: `sampling/createMessage` and `elicitation/create` go to the
 * plugin's handlers (the gateway and CLI configure them: sampling through the
 * configured provider, elicitation through the approvals prompt), and
 * `roots/list` lists the configured roots (the workspace). A capability is
 * declared only when it is handled; a request for anything else is refused
 * with a message that says what is missing.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode as McpErrorCode,
  ListRootsRequestSchema,
  McpError,
  type ClientCapabilities,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type Root,
} from '@modelcontextprotocol/sdk/types.js';

/** Who asks, and the request's own cancellation. */
export interface McpRequestContext {
  readonly server: string;
  readonly signal: AbortSignal;
}

/** Plugin-level answers to server-to-client requests (a front end may route per call instead; see forwarding). */
export interface McpClientHandlers {
  /** Answers `sampling/createMessage`. */
  readonly createMessage?: (params: CreateMessageRequest['params'], context: McpRequestContext) => Promise<CreateMessageResult>;
  /** Answers `elicitation/create` (form mode; omitted fields get the schema's defaults). */
  readonly elicitInput?: (params: ElicitRequest['params'], context: McpRequestContext) => Promise<ElicitResult>;
}

/** The capabilities a client with these handlers and roots declares. */
export function handlerCapabilities(handlers: McpClientHandlers | undefined, roots: readonly Root[] | undefined): ClientCapabilities {
  return {
    ...(handlers?.createMessage ? { sampling: {} } : {}),
    ...(handlers?.elicitInput ? { elicitation: { form: { applyDefaults: true } } } : {}),
    ...(roots?.length ? { roots: { listChanged: false } } : {}),
  };
}

/** Sets the request handlers on a client created with `handlerCapabilities(handlers, roots)`. */
export function installHandlers(client: Client, server: string, handlers: McpClientHandlers | undefined, roots: readonly Root[] | undefined): void {
  const { createMessage, elicitInput } = handlers ?? {};
  if (createMessage) client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => createMessage(request.params, { server, signal: extra.signal }));
  if (elicitInput) client.setRequestHandler(ElicitRequestSchema, (request, extra) => elicitInput(request.params, { server, signal: extra.signal }));
  if (roots?.length) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [...roots] }));
  client.fallbackRequestHandler = async (request) => {
    throw new McpError(McpErrorCode.MethodNotFound, refusal(request.method));
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
