/**
 * The error numbering 2025-era clients were promised. The v2 server SDK
 * encodes "resource not found" as `-32602` on every protocol revision (the
 * 2026-07-28 rule; its codec maps a thrown `-32002`), but the 2025-11-25
 * spec that a 2025-era session negotiated says `-32002`, and clients of that
 * era (and this server before the move to v2) match on it. A session's
 * `LegacyServer` puts it back on the way out, whatever transport it is
 * connected to: only for the errors this server raises for a missing
 * resource (aggregate.ts's `notFound`: `data.uri` and a "Resource not found" message).
 */
import { isJSONRPCErrorResponse, Server, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { RESOURCE_NOT_FOUND } from './aggregate.js';

/** The message as a 2025-era client expects it: a missing resource under `-32002`. */
export function withLegacyErrorCode(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCErrorResponse(message)) return message;
  const { error } = message;
  const data = error.data as { uri?: unknown } | undefined;
  if (error.code !== -32602 || typeof data?.uri !== 'string' || !error.message.startsWith('Resource not found'))
    return message;
  return { ...message, error: { ...error, code: RESOURCE_NOT_FOUND } };
}

/** The v2 SDK's `Server` for a 2025-era session: what it sends keeps that era's error numbering. */
export class LegacyServer extends Server {
  override connect(transport: Transport): Promise<void> {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(withLegacyErrorCode(message), options);
    return super.connect(transport);
  }
}
