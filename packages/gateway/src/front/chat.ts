/**
 * `POST /v1/chat/completions`: OpenAI's Chat Completions API, whole or
 * streamed (`stream: true`: role, content and `tool_calls` deltas, the
 * `finish_reason`, then `usage` when `stream_options.include_usage`). The
 * tool-search steps run server-side before the answer is streamed; SSE comments
 * keep the connection alive meanwhile. Errors use OpenAI's error shape.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { invalid, arrayAt, optionalPositiveInt, recordAt, requestObject, requiredString } from '../validate.js';
import type { ClientFunctionTool, TurnResult } from '../turn.js';
import type { FrontEnd } from './front.js';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

export interface ChatRequest {
  readonly messages: ChatCompletionMessageParam[];
  readonly clientTools: ClientFunctionTool[];
  readonly stream: boolean;
  readonly includeUsage: boolean;
  readonly maxTokens?: number;
}

export const chatFront: FrontEnd<ChatRequest> = {
  path: '/v1/chat/completions',
  parse(body) {
    const request = requestObject(body);
    const messages = arrayAt(request.messages, '/messages', { nonEmpty: true }).map((m, i) =>
      chatMessage(m, `/messages/${i}`),
    );
    const maxTokens = optionalPositiveInt(
      request.max_completion_tokens ?? request.max_tokens,
      '/max_completion_tokens',
    );
    const options =
      request.stream_options === undefined || request.stream_options === null
        ? {}
        : recordAt(request.stream_options, '/stream_options');
    return {
      messages,
      clientTools: functionTools(request.tools),
      stream: request.stream === true,
      includeUsage: options.include_usage === true,
      ...(maxTokens ? { maxTokens } : {}),
    };
  },
  turnInput: (request) => ({
    messages: request.messages,
    clientTools: request.clientTools,
    ...(request.maxTokens ? { maxTokens: request.maxTokens } : {}),
  }),
  wantsStream: (request) => request.stream,
  reply: (result, _request, ctx) => ({
    id: `chatcmpl-${ctx.id}`,
    object: 'chat.completion',
    created: now(),
    model: result.model,
    choices: [{ index: 0, message: result.message, finish_reason: result.finishReason, logprobs: null }],
    usage: usage(result),
    tool_search: toolSearchField(result),
  }),
  streamStart(stream, ctx) {
    ctx.chunk = { id: `chatcmpl-${ctx.id}`, object: 'chat.completion.chunk', created: now(), model: ctx.model };
    stream.send({
      ...(ctx.chunk as object),
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
    });
  },
  streamStep: (stream, step) => stream.comment(`tool-search step ${step}`),
  streamEnd(stream, result, request, ctx) {
    const chunk = (delta: object, finish: string | null) =>
      stream.send({ ...(ctx.chunk as object), choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
    if (result.message.content) chunk({ content: result.message.content }, null);
    const calls = result.message.tool_calls ?? [];
    if (calls.length) chunk({ tool_calls: calls.map((call, index) => ({ index, ...call })) }, null);
    stream.send({
      ...(ctx.chunk as object),
      choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: result.finishReason }],
      tool_search: toolSearchField(result),
    });
    if (request.includeUsage) stream.send({ ...(ctx.chunk as object), choices: [], usage: usage(result) });
    stream.send('[DONE]');
  },
  error: (status, error) => ({
    error: {
      message: error.message,
      type: errorType(status),
      param: null,
      code: error.code,
      ...(error.details ? { details: error.details } : {}),
    },
  }),
  streamError(stream, error) {
    stream.send({ error: { message: error.message, type: 'server_error', param: null, code: error.code } });
  },
};

/** The gateway's own report on a turn, added to every front end's answer. */
export function toolSearchField(result: TurnResult) {
  return {
    mode: result.mode,
    session_id: result.sessionId,
    requests: result.requests,
    tool_calls: result.toolCalls,
    ledger: result.ledger,
    exposure: result.exposure,
    ...(result.suspended ? { waiting_for_client: result.suspended.callIds } : {}),
    ...(result.deferral ? { deferral: result.deferral } : {}),
    ...(result.fallback ? { fallback: result.fallback } : {}),
    ...(result.path ? { path: result.path } : {}),
    ...(result.sandboxed ? { sandboxed: true } : {}),
  };
}

export function errorType(status: number): string {
  return status === 413 || status === 400 || status === 415 || status === 404 || status === 421
    ? 'invalid_request_error'
    : status === 401
      ? 'authentication_error'
      : status === 403
        ? 'permission_error'
        : status === 502
          ? 'upstream_error'
          : 'server_error';
}

export function functionTools(value: unknown): ClientFunctionTool[] {
  return arrayAt(value, '/tools', { optional: true }).map((tool, i) => {
    const record = recordAt(tool, `/tools/${i}`);
    if (record.type !== 'function')
      throw invalid(`/tools/${i}/type`, 'must be "function" (only function tools can be client tools)');
    const fn = recordAt(record.function, `/tools/${i}/function`);
    requiredString(fn.name, `/tools/${i}/function/name`);
    return record as unknown as ClientFunctionTool;
  });
}

function chatMessage(value: unknown, path: string): ChatCompletionMessageParam {
  const message = recordAt(value, path);
  const role = requiredString(message.role, `${path}/role`);
  if (!ROLES.has(role)) throw invalid(`${path}/role`, `must be one of ${[...ROLES].join(', ')}`);
  const content = message.content;
  if (content !== undefined && content !== null && typeof content !== 'string') {
    arrayAt(content, `${path}/content`).forEach((part, i) => {
      const record = recordAt(part, `${path}/content/${i}`);
      requiredString(record.type, `${path}/content/${i}/type`);
      if (record.type === 'text' && typeof record.text !== 'string')
        throw invalid(`${path}/content/${i}/text`, 'must be a string');
    });
  }
  if (role === 'tool') requiredString(message.tool_call_id, `${path}/tool_call_id`);
  if (role === 'assistant') {
    arrayAt(message.tool_calls, `${path}/tool_calls`, { optional: true }).forEach((call, i) => {
      const at = `${path}/tool_calls/${i}`;
      const record = recordAt(call, at);
      requiredString(record.id, `${at}/id`);
      const fn = recordAt(record.function, `${at}/function`);
      requiredString(fn.name, `${at}/function/name`);
      if (typeof fn.arguments !== 'string') throw invalid(`${at}/function/arguments`, 'must be a string');
    });
  } else if (content === undefined || content === null) {
    throw invalid(`${path}/content`, 'is required');
  }
  return message as unknown as ChatCompletionMessageParam;
}

function usage(result: TurnResult) {
  return {
    prompt_tokens: result.usage.input,
    completion_tokens: result.usage.output,
    total_tokens: result.usage.input + result.usage.output,
  };
}

const now = () => Math.floor(Date.now() / 1000);
