/**
 * The approval queue over HTTP, as a gateway route (shape from
 * @tool-search/plugin-approvals' README): list, read and answer pending calls.
 * Serves the in-process queue and the shared one (replicas) alike; a shared
 * store that does not answer is a 503 `STATE_UNAVAILABLE` from the gateway.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ToolSearchError } from '@tool-search/kernel';
import { ApprovalsErrors, type ApprovalDecision, type PendingApproval } from '@tool-search/plugin-approvals';

/** `principal`: the request's API key (gateway with `auth.keys`): it sees and answers only approvals of the agents it allows. */
export type GatewayRoute = (
  req: IncomingMessage,
  res: ServerResponse,
  body: () => Promise<unknown>,
  principal?: { readonly agents: readonly string[] },
) => Promise<boolean>;

/** What the route needs of a queue: `ApprovalQueue` answers at once, `SharedApprovalQueue` asynchronously. */
export interface ServedQueue {
  list(): PendingApproval[] | Promise<PendingApproval[]>;
  get(id: string): PendingApproval | undefined | Promise<PendingApproval | undefined>;
  answer(id: string, decision: ApprovalDecision): boolean | Promise<boolean>;
}

const PREFIX = '/v1/approvals';

export function approvalsRoute(queue: ServedQueue): GatewayRoute {
  return async (req, res, body, principal) => {
    const path = new URL(req.url ?? '/', 'http://gateway').pathname;
    if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return false;
    const id = path === PREFIX ? undefined : decodeURIComponent(path.slice(PREFIX.length + 1));
    // A key answers for its own agents only: another agent's approval is as if it did not exist (404).
    const mine = (pending: PendingApproval | undefined) =>
      pending !== undefined && allows(principal, pending.request.agentId);
    if (req.method === 'GET' && id === undefined)
      return send(res, 200, { approvals: (await queue.list()).filter(mine) });
    if (req.method === 'GET' && id) {
      const pending = await queue.get(id);
      return mine(pending) ? send(res, 200, pending) : notFound(res, id);
    }
    if (req.method === 'POST' && id) {
      if (principal && !mine(await queue.get(id))) return notFound(res, id);
      const decision = (await body().catch(() => undefined)) as { decision?: unknown } | undefined; // a body that is not JSON answers 400 APPROVAL_ANSWER_INVALID below, as a missing decision does
      try {
        if (!(await queue.answer(id, decision?.decision as ApprovalDecision))) return notFound(res, id);
      } catch (error) {
        if (ToolSearchError.isInstance(error) && error.code === ApprovalsErrors.APPROVAL_ANSWER_INVALID) {
          return send(res, 400, { error: { message: error.message, type: error.code, code: error.code } });
        }
        throw error;
      }
      return send(res, 200, { id, decision: decision?.decision });
    }
    return send(res, 405, {
      error: {
        message: `${req.method} is not allowed on ${path}`,
        type: 'method_not_allowed',
        code: 'method_not_allowed',
      },
    });
  };
}

function allows(principal: { readonly agents: readonly string[] } | undefined, agentId: string | undefined): boolean {
  if (!principal || principal.agents.includes('*')) return true;
  return agentId !== undefined && principal.agents.includes(agentId);
}

function notFound(res: ServerResponse, id: string): boolean {
  return send(res, 404, {
    error: {
      message: `No pending approval "${id}" (unknown, answered or expired)`,
      type: 'not_found',
      code: 'not_found',
    },
  });
}

function send(res: ServerResponse, status: number, value: unknown): boolean {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
  return true;
}
