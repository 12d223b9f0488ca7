/**
 * Approvals answered by the MCP client's user: a call that needs an approval
 * (`tools.approvals`) becomes an `elicitation/create` request to the client
 * of the session that made the call. No session, a client without the
 * `elicitation` capability, a decline, a cancel or an error all deny.
 * Hand `approve` to the preset (`createToolSearchKernel(config, { approve })`)
 * and the object itself to the server (`approvals`).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

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

const ARGS_PREVIEW_CHARS = 1_000;

export function elicitationApprovals(): ElicitationApprovals {
  const servers = new Map<string, Server>();
  return {
    async approve(request, context = {}) {
      const server = servers.get(request.sessionId);
      if (!server?.getClientCapabilities()?.elicitation) return 'deny';
      try {
        const answer = await server.elicitInput(
          {
            message: approvalMessage(request),
            requestedSchema: {
              type: 'object',
              properties: { approve: { type: 'boolean', title: 'Allow this call', description: `Run ${request.toolId} with these arguments` } },
              required: ['approve'],
            },
          },
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

function approvalMessage(request: ElicitedApprovalRequest): string {
  const args = JSON.stringify(request.args);
  const preview = args.length > ARGS_PREVIEW_CHARS ? `${args.slice(0, ARGS_PREVIEW_CHARS)}…` : args;
  return `Tool Search asks to run ${request.toolId} (approval required: ${request.reason}).\nArguments: ${preview}`;
}
