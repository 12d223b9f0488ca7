/**
 * Approvals answered by the MCP client's user: a call that needs an approval
 * (`tools.approvals`) becomes an `elicitation/create` request to the client
 * that made the call. A 2025-era session's client is asked by a pushed
 * request (the session's server, found by run session id); a 2026-07-28
 * client by an `input_required` round (the calling request's asker, found in
 * the call's async context: 2026-07-28 runs are shared by an agent's
 * requests, so the session id cannot tell them apart). No client to ask, a
 * client without the `elicitation` capability, a decline, a cancel, a
 * timeout or an error all deny.
 * Hand `approve` to the preset (`createToolSearchKernel(config, { approve })`)
 * and the object itself to the server (`approvals`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from '@modelcontextprotocol/server';
import type { Ask } from './input-bridge.js';

/** The fields of an approvals-plugin request this approver reads (structural: no plugin import). */
export interface ElicitedApprovalRequest {
  readonly sessionId: string;
  readonly toolId: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly reason: string;
}

export interface ElicitationApprovals {
  approve(request: ElicitedApprovalRequest, context?: { readonly signal?: AbortSignal }): Promise<'allow' | 'deny'>;
  /** Routes requests of run session `sessionId` to `server`'s client; returns the unregister function. */
  register(sessionId: string, server: Server): () => void;
}

/** The 2026-07-28 request a call runs for: its `input_required` asker, when the request declared `elicitation`. */
export interface ModernAsker {
  readonly ask?: Ask;
}

const modernCall = new AsyncLocalStorage<ModernAsker>();

/** Runs `call` (a 2026-07-28 request's tool call) so that approvals it needs are asked of that request's client. */
export function withModernAsker<T>(asker: ModernAsker, call: () => Promise<T>): Promise<T> {
  return modernCall.run(asker, call);
}

const ARGS_PREVIEW_CHARS = 1_000;

export function elicitationApprovals(): ElicitationApprovals {
  const servers = new Map<string, Server>();
  return {
    async approve(request, context = {}) {
      const modern = modernCall.getStore();
      if (modern) return askModern(modern, request, context.signal);
      const server = servers.get(request.sessionId);
      if (!server?.getClientCapabilities()?.elicitation) return 'deny';
      try {
        const answer = await server.elicitInput(
          approvalForm(request),
          context.signal ? { signal: context.signal } : undefined,
        );
        return answer.action === 'accept' && answer.content?.approve === true ? 'allow' : 'deny';
      } catch {
        return 'deny';
      }
    },
    register(sessionId, server) {
      servers.set(sessionId, server);
      return () => {
        if (servers.get(sessionId) === server) servers.delete(sessionId);
      };
    },
  };
}

/** One `input_required` round for the approval; anything but an accepted `approve: true` (or the signal aborting the round) denies. */
async function askModern(
  modern: ModernAsker,
  request: ElicitedApprovalRequest,
  signal: AbortSignal | undefined,
): Promise<'allow' | 'deny'> {
  if (!modern.ask) return 'deny';
  try {
    const answer = await modern.ask(
      { method: 'elicitation/create', params: approvalForm(request) },
      signal ?? new AbortController().signal,
    );
    const content = answer.content as Record<string, unknown> | undefined;
    return answer.action === 'accept' && content?.approve === true ? 'allow' : 'deny';
  } catch {
    return 'deny';
  }
}

function approvalForm(request: ElicitedApprovalRequest) {
  return {
    message: approvalMessage(request),
    requestedSchema: {
      type: 'object' as const,
      properties: {
        approve: {
          type: 'boolean' as const,
          title: 'Allow this call',
          description: `Run ${request.toolId} with these arguments`,
        },
      },
      required: ['approve'],
    },
  };
}

function approvalMessage(request: ElicitedApprovalRequest): string {
  const args = JSON.stringify(request.args);
  const preview = args.length > ARGS_PREVIEW_CHARS ? `${args.slice(0, ARGS_PREVIEW_CHARS)}…` : args;
  return `Tool Search asks to run ${request.toolId} (approval required: ${request.reason}).\nArguments: ${preview}`;
}
