/**
 * The gateway's turn runner for the session tools (`sessions_send`,
 * `sessions_spawn`, cron runs): one turn in a named session, the same loop
 * HTTP requests get. Its shape matches `@tool-search/sessions`'
 * `SessionTurnRunner` structurally, so the gateway does not depend on it.
 */
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { resolveUpstream, runTurn, type TurnOptions } from './turn.js';
import type { Upstream } from './upstream.js';

export interface SessionRunnerOptions extends TurnOptions {
  /** The provider for a model other than the gateway's (`sessions_spawn` `model`); without it such a turn is refused. */
  readonly upstreamFor?: (model: string) => Upstream;
}

export interface SessionRunnerRequest {
  readonly sessionId: string;
  readonly agentId?: string;
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly content: string }[];
  readonly model?: string;
  readonly signal?: AbortSignal;
}

export interface SessionRunnerReply {
  readonly content: string | null;
  readonly finishReason: string;
  readonly model: string;
  readonly usage: { readonly input: number; readonly output: number };
}

export function sessionTurnRunner(
  options: SessionRunnerOptions,
): (request: SessionRunnerRequest) => Promise<SessionRunnerReply> {
  const upstream = resolveUpstream(options);
  return async (request) => {
    const chosen = request.model && request.model !== upstream.model ? upstreamFor(options, request.model) : upstream;
    const result = await runTurn(
      { ...options, upstream: chosen },
      {
        messages: request.messages,
        sessionId: request.sessionId,
        ...(request.agentId ? { agentId: request.agentId } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      },
    );
    // No client tools in these turns, so nothing can be handed back; drop a suspension rather than leave it waiting.
    result.suspended?.abandon();
    return {
      content: result.message.content,
      finishReason: result.finishReason,
      model: result.model,
      usage: result.usage,
    };
  };
}

function upstreamFor(options: SessionRunnerOptions, model: string): Upstream {
  if (!options.upstreamFor) {
    throw new ToolSearchError(
      ErrorCode.OPTIONS_INVALID,
      `this gateway cannot run model "${model}": it has one provider model; leave model out`,
      { details: { model } },
    );
  }
  return options.upstreamFor(model);
}
