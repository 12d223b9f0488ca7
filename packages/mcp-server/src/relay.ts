/**
 * Client messages that belong to another replica of the same MCP session:
 * the answer to a request a replica's server sent the client (a forwarded
 * elicitation or sampling request, a ping) and a cancel of a call running on
 * another replica. Behind a round-robin balancer they land anywhere, so the
 * replica that gets one it cannot use publishes it on one store channel, and
 * the replica that holds the session and waits for it feeds it to its own
 * transport. Requests the server sends get ids naming this replica
 * (`ts:<replica>:<id>`): two replicas' servers number from 0, and the client
 * must never see one id for two requests of one session. A message for the
 * standalone GET stream (a notification or request outside any call) that
 * this replica has no stream for goes out over the channel too, and the
 * replica holding the client's stream sends it.
 */
import {
  WebStandardStreamableHTTPServerTransport,
  type WebStandardStreamableHTTPServerTransportOptions,
} from '@modelcontextprotocol/server';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/server';

export const RELAY_CHANNEL = 'mcp:relay';

/** What a replica does with one client message of a session it holds. */
export type Disposition = 'here' | 'elsewhere';

/** A bound on requests in flight either way (a client that never answers must not grow the maps). */
const MAX_OUTSTANDING = 1_000;

export class RelayingTransport extends WebStandardStreamableHTTPServerTransport {
  /** Tagged id the client sees → the server's own id, for requests the server waits on. */
  readonly #asked = new Map<string, RequestId>();
  readonly #tagOf = new Map<RequestId, string>();
  /** Client requests this replica is answering (a cancel for one of them is for here). */
  readonly #serving = new Set<RequestId>();
  readonly #replica: string;
  readonly #elsewhere: (message: JSONRPCMessage) => Promise<void>;
  /** GET streams being served here now (the standalone stream, and refused extra ones while they answer). */
  #streams = 0;

  /** `elsewhere`: sends a standalone-stream message to the other replicas of the session. */
  constructor(
    options: WebStandardStreamableHTTPServerTransportOptions,
    replica: string,
    elsewhere: (message: JSONRPCMessage) => Promise<void>,
  ) {
    super(options);
    this.#replica = replica;
    this.#elsewhere = elsewhere;
  }

  /** Wraps the serving of one GET request: while it lasts, standalone messages go out here. */
  async streaming<T>(serve: () => Promise<T>): Promise<T> {
    this.#streams++;
    try {
      return await serve();
    } finally {
      this.#streams--;
    }
  }

  /** A standalone-stream message relayed from another replica: sent here if the client's stream is here. */
  async sendRelayed(message: JSONRPCMessage): Promise<void> {
    if (this.#streams > 0) await super.send(message);
  }

  override async send(message: JSONRPCMessage, options?: { relatedRequestId?: RequestId }): Promise<void> {
    const outgoing = this.#tagged(message);
    const standalone =
      options?.relatedRequestId === undefined && !isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message);
    if (standalone && this.#streams === 0) return this.#elsewhere(outgoing).catch(() => undefined); // as with no open stream: a standalone message nobody can take is dropped (MCP spec)
    return super.send(outgoing, options);
  }

  /** The message as the client sees it: the server's requests (and its cancels of them) under ids naming this replica; its answers end a call here. */
  #tagged(message: JSONRPCMessage): JSONRPCMessage {
    if (isJSONRPCRequest(message)) {
      const tag = `ts:${this.#replica}:${String(message.id)}`;
      this.#remember(tag, message.id);
      return { ...message, id: tag };
    }
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      if (message.id !== undefined) this.#serving.delete(message.id);
      return message;
    }
    // The server cancelling its own request names it as the client knows it.
    const tag =
      message.method === 'notifications/cancelled' && isRequestId(message.params?.requestId)
        ? this.#tagOf.get(message.params.requestId)
        : undefined;
    if (!tag) return message;
    this.#forget(tag);
    return { ...message, params: { ...message.params, requestId: tag } };
  }

  /**
   * Where a client message goes: `here` (translated back to the server's own
   * id when it answers one of its requests; a request is counted as in flight)
   * or `elsewhere` (an answer or a cancel this replica has no use for).
   */
  route(message: unknown): { readonly to: Disposition; readonly message: unknown } {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const original = typeof message.id === 'string' ? this.#asked.get(message.id) : undefined;
      if (original === undefined) return { to: 'elsewhere', message };
      this.#forget(message.id as string);
      return { to: 'here', message: { ...message, id: original } };
    }
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      return { to: isRequestId(id) && this.#serving.has(id) ? 'here' : 'elsewhere', message };
    }
    if (isJSONRPCRequest(message)) {
      // A request the transport then refused is never answered: the oldest go first past the bound.
      if (this.#serving.size >= MAX_OUTSTANDING) this.#serving.delete(this.#serving.values().next().value!);
      this.#serving.add(message.id);
    }
    return { to: 'here', message };
  }

  /** Whether a message is of the kinds that may belong to another replica. */
  static relayable(message: unknown): boolean {
    return (
      isJSONRPCResultResponse(message) ||
      isJSONRPCErrorResponse(message) ||
      (isJSONRPCNotification(message) && message.method === 'notifications/cancelled')
    );
  }

  #remember(tag: string, id: RequestId): void {
    if (this.#asked.size >= MAX_OUTSTANDING) this.#forget(this.#asked.keys().next().value!);
    this.#asked.set(tag, id);
    this.#tagOf.set(id, tag);
  }

  #forget(tag: string): void {
    const id = this.#asked.get(tag);
    this.#asked.delete(tag);
    if (id !== undefined) this.#tagOf.delete(id);
  }
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || typeof value === 'number';
}
