/**
 * `POST /v1/messages`: Anthropic's Messages API. `system`, `messages` (text,
 * `tool_use`, `tool_result` blocks) and `tools` (client tools) become the
 * turn; a model call to a client tool comes back as a `tool_use` block with
 * `stop_reason: "tool_use"`. Streaming sends Anthropic's events, with `ping`
 * while the tool-search steps run. Errors use Anthropic's error shape.
 */
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import { arrayAt, flatClientTools, invalid, optionalPositiveInt, recordAt, requestObject, requiredString, textContent } from '../validate.js';
import type { ClientFunctionTool, TurnResult } from '../turn.js';
import { toolSearchField } from './chat.js';
import type { FrontContext, FrontEnd } from './front.js';

export interface MessagesRequest {
  readonly messages: ChatCompletionMessageParam[];
  readonly clientTools: ClientFunctionTool[];
  readonly stream: boolean;
  readonly maxTokens?: number;
}

/** Blocks a model may have produced that carry nothing the turn needs. */
const SKIPPED = new Set(['thinking', 'redacted_thinking']);

const ERROR_TYPES: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 413: 'request_too_large', 502: 'api_error' };

export const messagesFront: FrontEnd<MessagesRequest> = {
  path: '/v1/messages',
  parse(body) {
    const request = requestObject(body);
    const system = request.system === undefined || request.system === null ? '' : textContent(request.system, '/system', ['text']);
    const messages: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
    arrayAt(request.messages, '/messages', { nonEmpty: true }).forEach((m, i) => messages.push(...chatMessages(m, `/messages/${i}`)));
    const maxTokens = optionalPositiveInt(request.max_tokens, '/max_tokens');
    return { messages, clientTools: flatClientTools(request.tools, { accepts: (type) => type === undefined || type === 'custom', refusal: 'server tools are not supported; only custom tools can be client tools', schemaKey: 'input_schema' }), stream: request.stream === true, ...(maxTokens ? { maxTokens } : {}) };
  },
  turnInput: (request) => ({ messages: request.messages, clientTools: request.clientTools, ...(request.maxTokens ? { maxTokens: request.maxTokens } : {}) }),
  wantsStream: (request) => request.stream,
  reply: (result, _request, ctx) => ({ ...message(ctx, result), content: blocks(result), tool_search: toolSearchField(result) }),
  streamStart(stream, ctx) {
    stream.send({ type: 'message_start', message: { ...message(ctx), content: [] } }, 'message_start');
  },
  streamStep: (stream) => stream.send({ type: 'ping' }, 'ping'),
  streamEnd(stream, result) {
    blocks(result).forEach((block, index) => {
      const start = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
      stream.send({ type: 'content_block_start', index, content_block: start }, 'content_block_start');
      const delta = block.type === 'text' ? { type: 'text_delta', text: block.text } : { type: 'input_json_delta', partial_json: JSON.stringify(block.input) };
      stream.send({ type: 'content_block_delta', index, delta }, 'content_block_delta');
      stream.send({ type: 'content_block_stop', index }, 'content_block_stop');
    });
    const usage = { input_tokens: result.usage.input, output_tokens: result.usage.output };
    stream.send({ type: 'message_delta', delta: { stop_reason: stopReason(result), stop_sequence: null }, usage, tool_search: toolSearchField(result) }, 'message_delta');
    stream.send({ type: 'message_stop' }, 'message_stop');
  },
  error: (status, error) => ({ type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message: error.message, code: error.code, ...(error.details ? { details: error.details } : {}) } }),
  streamError(stream, error) {
    stream.send({ type: 'error', error: { type: 'api_error', message: error.message, code: error.code } }, 'error');
  },
};

function message(ctx: FrontContext, result?: TurnResult) {
  return {
    id: `msg_${ctx.id}`,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    stop_reason: result ? stopReason(result) : null,
    stop_sequence: null,
    usage: { input_tokens: result?.usage.input ?? 0, output_tokens: result?.usage.output ?? 0 },
  };
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

function blocks(result: TurnResult): Block[] {
  const out: Block[] = result.message.content ? [{ type: 'text', text: result.message.content }] : [];
  for (const call of result.message.tool_calls ?? []) {
    if (call.type === 'function') out.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseInput(call.function.arguments) });
  }
  return out;
}

function stopReason(result: TurnResult): string {
  return result.finishReason === 'tool_calls' ? 'tool_use' : result.finishReason === 'length' ? 'max_tokens' : 'end_turn';
}

/** One Anthropic message as chat messages: `tool_result` blocks become `tool` messages ahead of the user's text. */
function chatMessages(value: unknown, path: string): ChatCompletionMessageParam[] {
  const record = recordAt(value, path);
  const role = record.role;
  if (role !== 'user' && role !== 'assistant') throw invalid(`${path}/role`, 'must be "user" or "assistant"');
  if (typeof record.content === 'string') return [{ role, content: record.content }];
  const texts: string[] = [];
  const calls: ChatCompletionMessageToolCall[] = [];
  const results: ChatCompletionMessageParam[] = [];
  arrayAt(record.content, `${path}/content`).forEach((raw, i) => {
    const at = `${path}/content/${i}`;
    const block = recordAt(raw, at);
    if (block.type === 'text') texts.push(requiredText(block.text, `${at}/text`));
    else if (role === 'assistant' && block.type === 'tool_use') {
      calls.push({ id: requiredString(block.id, `${at}/id`), type: 'function', function: { name: requiredString(block.name, `${at}/name`), arguments: JSON.stringify(block.input ?? {}) } });
    } else if (role === 'user' && block.type === 'tool_result') {
      const content = block.content === undefined ? '' : textContent(block.content, `${at}/content`, ['text']);
      results.push({ role: 'tool', tool_call_id: requiredString(block.tool_use_id, `${at}/tool_use_id`), content: block.is_error === true ? `Error: ${content}` : content });
    } else if (!(role === 'assistant' && SKIPPED.has(String(block.type)))) {
      throw invalid(`${at}/type`, role === 'user' ? 'must be "text" or "tool_result" (the gateway forwards text)' : 'must be "text" or "tool_use"');
    }
  });
  const text = texts.join('\n');
  if (role === 'assistant') return [{ role, content: text || null, ...(calls.length ? { tool_calls: calls } : {}) }];
  return [...results, ...(text ? [{ role: 'user' as const, content: text }] : [])];
}

function requiredText(value: unknown, path: string): string {
  if (typeof value !== 'string') throw invalid(path, 'must be a string');
  return value;
}

function parseInput(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}
