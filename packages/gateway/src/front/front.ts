/**
 * What a front-end API is to the server: parse its request into a turn,
 * answer whole or as a stream, and say errors in its own shape. `serveFront`
 * runs one request through a front end: `x-session-id`, the agent the
 * server settled on, the turn, client disconnects (abort the turn and its calls),
 * and errors (coded, logged on stderr when they are the provider's or ours).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { abortOnDisconnect, openEventStream, publicError, sendJson, statusOf, type EventStream } from '../http.js';
import type { SessionOwners } from '../session-owners.js';
import type { HandoffOwners } from '../handoff-owners.js';
import type { SuspendedTurns } from '../suspended-turns.js';
import { runTurn, type TurnInput, type TurnOptions, type TurnResult } from '../turn.js';

export type PublicError = ReturnType<typeof publicError>;

export interface FrontContext {
  /** This answer's id (`chatcmpl-…`, `resp_…`, `msg_…` carry it). */
  readonly id: string;
  readonly model: string;
  readonly sessionId: string;
  /** Scratch space for a streaming front end. */
  [key: string]: unknown;
}

export type FrontTurnInput = Omit<TurnInput, 'sessionId' | 'agentId' | 'signal' | 'onStep'>;

export interface FrontEnd<R> {
  readonly path: string;
  /** May read the state store (the Responses API's stored conversations). */
  parse(body: unknown): R | Promise<R>;
  /** A session implied by the request itself (the Responses API's `previous_response_id`). */
  sessionOf?(request: R): string | undefined;
  turnInput(request: R): FrontTurnInput;
  wantsStream(request: R): boolean;
  reply(result: TurnResult, request: R, ctx: FrontContext): unknown;
  streamStart(stream: EventStream, ctx: FrontContext, request: R): void;
  streamStep(stream: EventStream, step: number, ctx: FrontContext): void;
  streamEnd(stream: EventStream, result: TurnResult, request: R, ctx: FrontContext): void;
  error(status: number, error: PublicError): unknown;
  streamError(stream: EventStream, error: PublicError, ctx: FrontContext): void;
  /** After a successful turn (the Responses API stores it for `previous_response_id`). */
  completed?(result: TurnResult, request: R, ctx: FrontContext): void | Promise<void>;
}

export interface ServeContext {
  readonly turn: TurnOptions;
  readonly model: string;
  readonly log: (line: string) => void;
  /** Turns waiting for client calls made inside tool_call or code. */
  readonly suspended: SuspendedTurns;
  /** With a shared store: which replica holds each suspended turn, so another one can name it. */
  readonly handoffOwners?: HandoffOwners;
  /** With keys: which key owns each session. */
  readonly owners?: SessionOwners;
  /** The agent a request naming none runs as (default `main`). */
  readonly defaultAgentId?: string;
}

/** Who asks: the agent the request's key and `x-agent-id` settled on (server.ts; undefined: the default agent), and the key's id (with keys). */
export interface Caller {
  readonly agentId: string | undefined;
  readonly keyId: string | undefined;
}

export async function serveFront<R>(
  front: FrontEnd<R>,
  req: IncomingMessage,
  res: ServerResponse,
  body: () => Promise<unknown>,
  serve: ServeContext,
  caller: Caller,
): Promise<void> {
  const signal = abortOnDisconnect(res);
  let request: R;
  try {
    request = await front.parse(await body());
  } catch (error) {
    return fail(front, res, error, serve);
  }
  const sessionHeader = header(req, 'x-session-id');
  const { agentId, keyId } = caller;
  const sessionId = sessionHeader ?? front.sessionOf?.(request) ?? mainSessionOf(agentId, keyId, serve.defaultAgentId);
  // With keys, a session belongs to the key that first used it: another key naming it is refused (403).
  if (serve.owners && keyId !== undefined) {
    try {
      await serve.owners.claim(sessionId, keyId);
    } catch (error) {
      return fail(front, res, error, serve);
    }
  }
  const ctx: FrontContext = { id: randomUUID().replace(/-/g, ''), model: serve.model, sessionId };
  const input = { ...front.turnInput(request), sessionId, signal, ...(agentId ? { agentId } : {}) };
  if (!front.wantsStream(request)) {
    try {
      const result = await turnOrResume(serve, input);
      await front.completed?.(result, request, ctx);
      return sendJson(res, 200, front.reply(result, request, ctx), { 'x-session-id': result.sessionId });
    } catch (error) {
      return fail(front, res, error, serve, signal);
    }
  }
  const stream = openEventStream(res, { 'x-session-id': sessionId });
  front.streamStart(stream, ctx, request);
  try {
    const result = await turnOrResume(serve, { ...input, onStep: (step) => front.streamStep(stream, step, ctx) });
    await front.completed?.(result, request, ctx);
    front.streamEnd(stream, result, request, ctx);
  } catch (error) {
    if (!signal.aborted) {
      logFailure(error, serve);
      front.streamError(stream, publicError(error), ctx);
    }
  } finally {
    stream.end();
  }
}

/** A request that brings the results of handed-off client calls resumes the turn waiting for them; any other starts one. */
async function turnOrResume(serve: ServeContext, input: TurnInput): Promise<TurnResult> {
  const waiting = serve.suspended.take(input.messages);
  if (waiting) await serve.handoffOwners?.forget(waiting.turn.callIds);
  // Results for a turn another replica holds would otherwise start a new turn here, without the model's calls.
  else await serve.handoffOwners?.check(input.messages);
  const result = waiting ? await waiting.turn.resume(waiting.results) : await runTurn(serve.turn, input);
  serve.suspended.add(result);
  if (result.suspended) await serve.handoffOwners?.record(result.suspended.callIds);
  return result;
}

function fail<R>(
  front: FrontEnd<R>,
  res: ServerResponse,
  error: unknown,
  serve: ServeContext,
  signal?: AbortSignal,
): void {
  if (signal?.aborted || res.destroyed) return;
  logFailure(error, serve);
  const status = statusOf(error);
  sendJson(res, status, front.error(status, publicError(error)));
}

/** The provider's failures and the gateway's own go to the operator's log; a client's bad request does not. */
function logFailure(error: unknown, serve: ServeContext): void {
  if (ToolSearchError.isInstance(error)) {
    if (error.code === ErrorCode.PROVIDER_FAILED) serve.log(`gateway: ${error.code}: ${error.message}`);
    return;
  }
  serve.log(`gateway: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}

/**
 * OpenClaw's main session, where a request without `x-session-id` lands: one direct chat per agent, id `main` for the
 * default agent and `main:<agentId>` for another; behind keys one per key (`…@<keyId>`), so no key reads another's.
 * The same ids as `@tool-search/sessions`' `mainSessionId` (which names them `agent:<agentId>:main` to the tools).
 */
function mainSessionOf(agentId: string | undefined, keyId: string | undefined, defaultAgentId = 'main'): string {
  const agent = agentId && agentId !== defaultAgentId ? `:${agentId}` : '';
  return `main${agent}${keyId !== undefined ? `@${keyId}` : ''}`;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value ? value : undefined;
}
