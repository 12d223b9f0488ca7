/**
 * `POST /v1/responses`: OpenAI's Responses API. `input` (text or items:
 * messages, `function_call`, `function_call_output`) and `instructions` become
 * the turn; function tools are client tools, and a model call to one comes
 * back as a `function_call` output item. `previous_response_id` continues a
 * stored conversation (and its session); streaming sends the documented
 * `response.*` events. Stored responses are bounded (oldest dropped first).
 */
import type { ChatCompletionAssistantMessageParam, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { arrayAt, invalid, isRecord, optionalPositiveInt, optionalString, recordAt, requestObject, requiredString, textContent } from '../validate.js';
import type { ClientFunctionTool, TurnResult } from '../turn.js';
import type { EventStream } from '../http.js';
import { errorType, toolSearchField } from './chat.js';
import type { FrontContext, FrontEnd } from './front.js';

export interface ResponsesRequest {
  readonly instructions?: string;
  readonly input: ChatCompletionMessageParam[];
  readonly history: readonly ChatCompletionMessageParam[];
  readonly previousId?: string;
  readonly sessionId?: string;
  readonly clientTools: ClientFunctionTool[];
  readonly stream: boolean;
  readonly maxTokens?: number;
  readonly raw: Record<string, unknown>;
}

interface Stored {
  readonly messages: readonly ChatCompletionMessageParam[];
  readonly sessionId: string;
}

const INPUT_TEXT = ['input_text', 'output_text', 'text'];

export function createResponsesFront(maxStored = 256): FrontEnd<ResponsesRequest> {
  const stored = new Map<string, Stored>();
  return {
    path: '/v1/responses',
    parse(body) {
      const request = requestObject(body);
      const previousId = optionalString(request.previous_response_id, '/previous_response_id');
      const previous = previousId ? stored.get(previousId) : undefined;
      if (previousId && !previous) throw invalid('/previous_response_id', `no stored response "${previousId}" (this gateway keeps the last ${maxStored})`);
      const instructions = optionalString(request.instructions, '/instructions');
      const maxTokens = optionalPositiveInt(request.max_output_tokens, '/max_output_tokens');
      return {
        ...(instructions ? { instructions } : {}),
        input: inputMessages(request.input),
        history: previous?.messages ?? [],
        ...(previousId ? { previousId } : {}),
        ...(previous ? { sessionId: previous.sessionId } : {}),
        clientTools: responseTools(request.tools),
        stream: request.stream === true,
        ...(maxTokens ? { maxTokens } : {}),
        raw: request,
      };
    },
    sessionOf: (request) => request.sessionId,
    turnInput: (request) => ({
      messages: [...(request.instructions ? [{ role: 'system' as const, content: request.instructions }] : []), ...request.history, ...request.input],
      clientTools: request.clientTools,
      ...(request.maxTokens ? { maxTokens: request.maxTokens } : {}),
    }),
    wantsStream: (request) => request.stream,
    completed(result, request, ctx) {
      stored.set(`resp_${ctx.id}`, { messages: [...request.history, ...request.input, assistantParam(result)], sessionId: result.sessionId });
      if (stored.size > maxStored) stored.delete(stored.keys().next().value as string);
    },
    reply: (result, request, ctx) => response(ctx, request, 'completed', result),
    streamStart(stream, ctx, request) {
      ctx.sequence = 0;
      send(stream, ctx, 'response.created', { response: response(ctx, request, 'in_progress') });
      send(stream, ctx, 'response.in_progress', { response: response(ctx, request, 'in_progress') });
    },
    streamStep: (stream, step) => stream.comment(`tool-search step ${step}`),
    streamEnd(stream, result, request, ctx) {
      outputItems(result, ctx).forEach((item, index) => {
        send(stream, ctx, 'response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', ...(item.type === 'message' ? { content: [] } : { arguments: '' }) } });
        if (item.type === 'message') {
          const part = { type: 'output_text', text: '', annotations: [] };
          const text = item.content[0]!.text;
          const at = { item_id: item.id, output_index: index, content_index: 0 };
          send(stream, ctx, 'response.content_part.added', { ...at, part });
          send(stream, ctx, 'response.output_text.delta', { ...at, delta: text, logprobs: [] });
          send(stream, ctx, 'response.output_text.done', { ...at, text, logprobs: [] });
          send(stream, ctx, 'response.content_part.done', { ...at, part: { ...part, text } });
        } else {
          const at = { item_id: item.id, output_index: index };
          send(stream, ctx, 'response.function_call_arguments.delta', { ...at, delta: item.arguments });
          send(stream, ctx, 'response.function_call_arguments.done', { ...at, name: item.name, arguments: item.arguments });
        }
        send(stream, ctx, 'response.output_item.done', { output_index: index, item });
      });
      send(stream, ctx, result.finishReason === 'length' ? 'response.incomplete' : 'response.completed', { response: response(ctx, request, 'completed', result) });
    },
    error: (status, error) => ({ error: { message: error.message, type: errorType(status), param: error.details?.path ?? null, code: error.code } }),
    streamError(stream, error, ctx) {
      // `error` as well as the documented fields: the official client throws on an event that carries it.
      send(stream, ctx, 'error', { code: error.code, message: error.message, param: null, error: { code: error.code, message: error.message, type: 'server_error' } });
    },
  };
}

function send(stream: EventStream, ctx: FrontContext, type: string, data: object): void {
  const sequence = (ctx.sequence as number) ?? 0;
  ctx.sequence = sequence + 1;
  stream.send({ type, sequence_number: sequence, ...data }, type);
}

type OutputItem =
  | { type: 'message'; id: string; status: 'completed'; role: 'assistant'; content: { type: 'output_text'; text: string; annotations: [] }[] }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: 'completed' };

function outputItems(result: TurnResult, ctx: FrontContext): OutputItem[] {
  const items: OutputItem[] = [];
  if (result.message.content) {
    items.push({ type: 'message', id: `msg_${ctx.id}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: result.message.content, annotations: [] }] });
  }
  for (const call of result.message.tool_calls ?? []) {
    if (call.type === 'function') items.push({ type: 'function_call', id: `fc_${call.id}`, call_id: call.id, name: call.function.name, arguments: call.function.arguments, status: 'completed' });
  }
  return items;
}

function response(ctx: FrontContext, request: ResponsesRequest, status: 'in_progress' | 'completed', result?: TurnResult) {
  const incomplete = result?.finishReason === 'length';
  return {
    id: `resp_${ctx.id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: incomplete ? 'incomplete' : status,
    model: ctx.model,
    output: result ? outputItems(result, ctx) : [],
    error: null,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    instructions: request.instructions ?? null,
    previous_response_id: request.previousId ?? null,
    tools: request.raw.tools ?? [],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    metadata: {},
    temperature: null,
    top_p: null,
    text: { format: { type: 'text' } },
    usage: result
      ? {
          input_tokens: result.usage.input,
          output_tokens: result.usage.output,
          total_tokens: result.usage.input + result.usage.output,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        }
      : null,
    ...(result ? { tool_search: toolSearchField(result) } : {}),
  };
}

function assistantParam(result: TurnResult): ChatCompletionAssistantMessageParam {
  return { role: 'assistant', content: result.message.content, ...(result.message.tool_calls?.length ? { tool_calls: result.message.tool_calls } : {}) };
}

/** `input` as chat messages: consecutive `function_call` items join one assistant message. */
function inputMessages(value: unknown): ChatCompletionMessageParam[] {
  if (typeof value === 'string') return [{ role: 'user', content: value }];
  const out: ChatCompletionMessageParam[] = [];
  arrayAt(value, '/input', { nonEmpty: true }).forEach((raw, i) => {
    const path = `/input/${i}`;
    const item = recordAt(raw, path);
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = requiredString(item.role, `${path}/role`);
      const content = textContent(item.content, `${path}/content`, INPUT_TEXT);
      if (role === 'user' || role === 'assistant' || role === 'system' || role === 'developer') out.push({ role, content } as ChatCompletionMessageParam);
      else throw invalid(`${path}/role`, 'must be user, assistant, system or developer');
    } else if (type === 'function_call') {
      const call = { id: requiredString(item.call_id, `${path}/call_id`), type: 'function' as const, function: { name: requiredString(item.name, `${path}/name`), arguments: String(item.arguments ?? '') } };
      const last = out[out.length - 1];
      if (last?.role === 'assistant') (last.tool_calls ??= []).push(call);
      else out.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (type === 'function_call_output') {
      const output = typeof item.output === 'string' ? item.output : textContent(item.output, `${path}/output`, INPUT_TEXT);
      out.push({ role: 'tool', tool_call_id: requiredString(item.call_id, `${path}/call_id`), content: output });
    } else {
      throw invalid(`${path}/type`, 'must be message, function_call or function_call_output');
    }
  });
  return out;
}

function responseTools(value: unknown): ClientFunctionTool[] {
  return arrayAt(value, '/tools', { optional: true }).map((tool, i) => {
    const record = recordAt(tool, `/tools/${i}`);
    if (record.type !== 'function') throw invalid(`/tools/${i}/type`, 'must be "function" (only function tools can be client tools)');
    const name = requiredString(record.name, `/tools/${i}/name`);
    return {
      type: 'function',
      function: {
        name,
        ...(typeof record.description === 'string' ? { description: record.description } : {}),
        ...(isRecord(record.parameters) ? { parameters: record.parameters } : {}),
      },
    };
  });
}
