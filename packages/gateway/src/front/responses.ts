/**
 * `POST /v1/responses`: OpenAI's Responses API. `input` (text or items:
 * messages, `function_call`, `function_call_output`) and `instructions` become
 * the turn; function tools are client tools, and a model call to one comes
 * back as a `function_call` output item. `previous_response_id` continues a
 * stored conversation (and its session); streaming sends the documented
 * `response.*` events. Stored responses live in `stored-responses.ts` (the
 * replicas' shared store, an LRU in front).
 */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { references, referencedNames, type DeferredTools } from '../deferred.js';
import {
  arrayAt,
  invalid,
  optionalPositiveInt,
  optionalString,
  recordAt,
  requestObject,
  requiredString,
  textContent,
} from '../validate.js';
import type { ClientFunctionTool, TurnResult } from '../turn.js';
import type { EventStream } from '../http.js';
import { errorType, toolSearchField } from './chat.js';
import { StoredResponses } from '../stored-responses.js';
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
  readonly deferred?: DeferredTools;
}

/** The function a model without native `tool_search` calls to search the deferred tools (served by the gateway). */
const SERVED_SEARCH = 'tool_search_tool_bm25';

const INPUT_TEXT = ['input_text', 'output_text', 'text'];

export function createResponsesFront(stored = new StoredResponses()): FrontEnd<ResponsesRequest> {
  return {
    path: '/v1/responses',
    async parse(body) {
      const request = requestObject(body);
      const previousId = optionalString(request.previous_response_id, '/previous_response_id');
      const previous = previousId ? await stored.get(previousId) : undefined;
      const instructions = optionalString(request.instructions, '/instructions');
      const maxTokens = optionalPositiveInt(request.max_output_tokens, '/max_output_tokens');
      const loaded: string[] = [];
      const input = inputMessages(request.input, loaded);
      const { clientTools, deferred } = responsesTools(request.tools, [
        ...(previous ? loadedIn(previous.messages) : []),
        ...loaded,
      ]);
      return {
        ...(instructions ? { instructions } : {}),
        input,
        history: previous?.messages ?? [],
        ...(previousId ? { previousId } : {}),
        ...(previous ? { sessionId: previous.sessionId } : {}),
        clientTools,
        ...(deferred ? { deferred } : {}),
        stream: request.stream === true,
        ...(maxTokens ? { maxTokens } : {}),
        raw: request,
      };
    },
    sessionOf: (request) => request.sessionId,
    turnInput: (request) => ({
      messages: [
        ...(request.instructions ? [{ role: 'system' as const, content: request.instructions }] : []),
        ...request.history,
        ...request.input,
      ],
      clientTools: request.clientTools,
      ...(request.maxTokens ? { maxTokens: request.maxTokens } : {}),
      ...(request.deferred ? { deferred: request.deferred } : {}),
    }),
    wantsStream: (request) => request.stream,
    completed: (result, request, ctx) =>
      stored.put(`resp_${ctx.id}`, {
        messages: [...request.history, ...request.input, ...searchMessages(result), assistantParam(result)],
        sessionId: result.sessionId,
      }),
    reply: (result, request, ctx) => response(ctx, request, 'completed', result),
    streamStart(stream, ctx, request) {
      ctx.sequence = 0;
      send(stream, ctx, 'response.created', { response: response(ctx, request, 'in_progress') });
      send(stream, ctx, 'response.in_progress', { response: response(ctx, request, 'in_progress') });
    },
    streamStep: (stream, step) => stream.comment(`tool-search step ${step}`),
    streamEnd(stream, result, request, ctx) {
      outputItems(result, ctx, request).forEach((item, index) => {
        if (item.type === 'tool_search_call' || item.type === 'tool_search_output') {
          send(stream, ctx, 'response.output_item.added', { output_index: index, item });
          send(stream, ctx, 'response.output_item.done', { output_index: index, item });
          return;
        }
        send(stream, ctx, 'response.output_item.added', {
          output_index: index,
          item: { ...item, status: 'in_progress', ...(item.type === 'message' ? { content: [] } : { arguments: '' }) },
        });
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
          send(stream, ctx, 'response.function_call_arguments.done', {
            ...at,
            name: item.name,
            arguments: item.arguments,
          });
        }
        send(stream, ctx, 'response.output_item.done', { output_index: index, item });
      });
      send(stream, ctx, result.finishReason === 'length' ? 'response.incomplete' : 'response.completed', {
        response: response(ctx, request, 'completed', result),
      });
    },
    error: (status, error) => ({
      error: { message: error.message, type: errorType(status), param: error.details?.path ?? null, code: error.code },
    }),
    streamError(stream, error, ctx) {
      // `error` as well as the documented fields: the official client throws on an event that carries it.
      send(stream, ctx, 'error', {
        code: error.code,
        message: error.message,
        param: null,
        error: { code: error.code, message: error.message, type: 'server_error' },
      });
    },
  };
}

function send(stream: EventStream, ctx: FrontContext, type: string, data: object): void {
  const sequence = (ctx.sequence as number) ?? 0;
  ctx.sequence = sequence + 1;
  stream.send({ type, sequence_number: sequence, ...data }, type);
}

type OutputItem =
  | {
      type: 'message';
      id: string;
      status: 'completed';
      role: 'assistant';
      content: { type: 'output_text'; text: string; annotations: [] }[];
    }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: 'completed' }
  | {
      type: 'tool_search_call';
      id: string;
      call_id: string;
      execution: 'server';
      status: 'completed';
      arguments: unknown;
    }
  | {
      type: 'tool_search_output';
      id: string;
      call_id: string;
      execution: 'server';
      status: 'completed';
      tools: object[];
    };

function outputItems(result: TurnResult, ctx: FrontContext, request?: ResponsesRequest): OutputItem[] {
  const items: OutputItem[] = [];
  const byName = new Map((request?.deferred?.tools ?? []).map((tool) => [tool.function.name, tool]));
  for (const block of result.serverBlocks ?? []) {
    if (block.type === 'server_tool_use')
      items.push({
        type: 'tool_search_call',
        id: `tsc_${block.id}`,
        call_id: block.id,
        execution: 'server',
        status: 'completed',
        arguments: block.input,
      });
    else {
      const tools = referencedNames(block.content).flatMap((name) => {
        const tool = byName.get(name);
        return tool
          ? [
              {
                type: 'function',
                name,
                ...(tool.function.description ? { description: tool.function.description } : {}),
                parameters: tool.function.parameters ?? { type: 'object' },
              },
            ]
          : [];
      });
      items.push({
        type: 'tool_search_output',
        id: `tso_${block.tool_use_id}`,
        call_id: block.tool_use_id,
        execution: 'server',
        status: 'completed',
        tools,
      });
    }
  }
  if (result.message.content) {
    items.push({
      type: 'message',
      id: `msg_${ctx.id}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: result.message.content, annotations: [] }],
    });
  }
  for (const call of result.message.tool_calls ?? []) {
    if (call.type === 'function')
      items.push({
        type: 'function_call',
        id: `fc_${call.id}`,
        call_id: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
        status: 'completed',
      });
  }
  return items;
}

function response(
  ctx: FrontContext,
  request: ResponsesRequest,
  status: 'in_progress' | 'completed',
  result?: TurnResult,
) {
  const incomplete = result?.finishReason === 'length';
  return {
    id: `resp_${ctx.id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: incomplete ? 'incomplete' : status,
    model: ctx.model,
    output: result ? outputItems(result, ctx, request) : [],
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
  return {
    role: 'assistant',
    content: result.message.content,
    ...(result.message.tool_calls?.length ? { tool_calls: result.message.tool_calls } : {}),
  };
}

/**
 * The request's tools: functions (top-level or in a `namespace`) are client tools, or deferred ones with
 * `defer_loading: true`, searched through `tool_search` (served by the gateway: see deferred.ts).
 */
function responsesTools(
  value: unknown,
  loaded: readonly string[],
): { clientTools: ClientFunctionTool[]; deferred?: DeferredTools } {
  const clientTools: ClientFunctionTool[] = [];
  const tools: ClientFunctionTool[] = [];
  const raw: Record<string, unknown>[] = [];
  let search = false;
  const fn = (record: Record<string, unknown>, at: string) => {
    if (record.type !== 'function')
      throw invalid(
        `${at}/type`,
        'must be "function", "namespace" or "tool_search" (only function tools can be client tools)',
      );
    const schema = record.parameters;
    const tool: ClientFunctionTool = {
      type: 'function',
      function: {
        name: requiredString(record.name, `${at}/name`),
        ...(typeof record.description === 'string' ? { description: record.description } : {}),
        parameters:
          typeof schema === 'object' && schema !== null && !Array.isArray(schema)
            ? (schema as Record<string, unknown>)
            : { type: 'object' },
      },
    };
    if (record.defer_loading === true) {
      tools.push(tool);
      raw.push(record);
    } else clientTools.push(tool);
  };
  arrayAt(value, '/tools', { optional: true }).forEach((item, i) => {
    const at = `/tools/${i}`;
    const record = recordAt(item, at);
    if (record.type === 'tool_search') search = true;
    else if (record.type === 'namespace')
      arrayAt(record.tools, `${at}/tools`).forEach((member, j) =>
        fn(recordAt(member, `${at}/tools/${j}`), `${at}/tools/${j}`),
      );
    else fn(record, at);
  });
  if (!search) {
    if (tools.length) throw invalid('/tools', 'functions with defer_loading need a tool_search tool');
    return { clientTools };
  }
  return {
    clientTools,
    deferred: {
      searchTool: { type: 'tool_search', name: SERVED_SEARCH },
      variant: 'bm25',
      tools,
      raw,
      loaded,
      origin: 'responses',
    },
  };
}

/** The turn's searches as the chat messages it sent upstream (stored for `previous_response_id`, so the bytes repeat). */
function searchMessages(result: TurnResult): ChatCompletionMessageParam[] {
  return (result.serverBlocks ?? []).map(
    (block): ChatCompletionMessageParam =>
      block.type === 'server_tool_use'
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: block.id,
                type: 'function',
                function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
              },
            ],
          }
        : { role: 'tool', tool_call_id: block.tool_use_id, content: JSON.stringify(block.content) },
  );
}

/** Tools earlier searches of a stored conversation loaded. */
function loadedIn(messages: readonly ChatCompletionMessageParam[]): string[] {
  return messages.flatMap((message) => {
    if (message.role !== 'tool' || typeof message.content !== 'string' || !message.content.includes('tool_reference'))
      return [];
    try {
      return referencedNames(JSON.parse(message.content));
    } catch {
      return [];
    }
  });
}

/** `input` as chat messages: consecutive `function_call` items join one assistant message; `tool_search_*` items replay a search. */
function inputMessages(value: unknown, loaded: string[]): ChatCompletionMessageParam[] {
  if (typeof value === 'string') return [{ role: 'user', content: value }];
  const out: ChatCompletionMessageParam[] = [];
  arrayAt(value, '/input', { nonEmpty: true }).forEach((raw, i) => {
    const path = `/input/${i}`;
    const item = recordAt(raw, path);
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = requiredString(item.role, `${path}/role`);
      const content = textContent(item.content, `${path}/content`, INPUT_TEXT);
      if (role === 'user' || role === 'assistant' || role === 'system' || role === 'developer')
        out.push({ role, content } as ChatCompletionMessageParam);
      else throw invalid(`${path}/role`, 'must be user, assistant, system or developer');
    } else if (type === 'function_call') {
      const call = {
        id: requiredString(item.call_id, `${path}/call_id`),
        type: 'function' as const,
        function: { name: requiredString(item.name, `${path}/name`), arguments: String(item.arguments ?? '') },
      };
      const last = out[out.length - 1];
      if (last?.role === 'assistant') (last.tool_calls ??= []).push(call);
      else out.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (type === 'function_call_output') {
      const output =
        typeof item.output === 'string' ? item.output : textContent(item.output, `${path}/output`, INPUT_TEXT);
      out.push({ role: 'tool', tool_call_id: requiredString(item.call_id, `${path}/call_id`), content: output });
    } else if (type === 'tool_search_call') {
      const id = requiredString(item.call_id, `${path}/call_id`);
      out.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          { id, type: 'function', function: { name: SERVED_SEARCH, arguments: JSON.stringify(item.arguments ?? {}) } },
        ],
      });
    } else if (type === 'tool_search_output') {
      const names = arrayAt(item.tools ?? [], `${path}/tools`).flatMap((tool) =>
        typeof (tool as { name?: unknown })?.name === 'string' ? [(tool as { name: string }).name] : [],
      );
      for (const name of names) if (!loaded.includes(name)) loaded.push(name);
      out.push({
        role: 'tool',
        tool_call_id: requiredString(item.call_id, `${path}/call_id`),
        content: JSON.stringify(references(names)),
      });
    } else {
      throw invalid(
        `${path}/type`,
        'must be message, function_call, function_call_output, tool_search_call or tool_search_output',
      );
    }
  });
  return out;
}
