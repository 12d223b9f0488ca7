/**
 * `POST /v1/messages`: Anthropic's Messages API. `system`, `messages` (text,
 * `tool_use`, `tool_result` blocks) and `tools` (client tools) become the
 * turn; a model call to a client tool comes back as a `tool_use` block with
 * `stop_reason: "tool_use"`. Streaming sends Anthropic's events, with `ping`
 * while the tool-search steps run. Errors use Anthropic's error shape. A
 * client's `cache_control` marks are not forwarded: the system text and
 * messages are rendered again (the gateway's system text first, neighbours
 * merged), so their places do not exist upstream; the Anthropic upstream
 * places its own breakpoints (cache-breakpoints.ts).
 */
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import { referenceBlockNames, referencedNames, SEARCH_TOOL_TYPES, type DeferredTools } from '../deferred.js';
import {
  arrayAt,
  invalid,
  optionalPositiveInt,
  recordAt,
  requestObject,
  requiredString,
  textContent,
} from '../validate.js';
import type { ClientFunctionTool, TurnResult } from '../turn.js';
import { toolSearchField } from './chat.js';
import type { FrontContext, FrontEnd } from './front.js';

export interface MessagesRequest {
  readonly messages: ChatCompletionMessageParam[];
  readonly clientTools: ClientFunctionTool[];
  readonly stream: boolean;
  readonly maxTokens?: number;
  readonly deferred?: DeferredTools;
}

/** What the history's tool searches loaded: names in order, and the client's custom search results by `tool_use_id`. */
interface History {
  readonly loaded: string[];
  readonly references: Map<string, string[]>;
}

/** Blocks a model may have produced that carry nothing the turn needs. */
const SKIPPED = new Set(['thinking', 'redacted_thinking']);

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  415: 'invalid_request_error',
  421: 'invalid_request_error',
  502: 'api_error',
};

export const messagesFront: FrontEnd<MessagesRequest> = {
  path: '/v1/messages',
  parse(body) {
    const request = requestObject(body);
    const system =
      request.system === undefined || request.system === null ? '' : textContent(request.system, '/system', ['text']);
    const messages: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
    const history: History = { loaded: [], references: new Map() };
    arrayAt(request.messages, '/messages', { nonEmpty: true }).forEach((m, i) =>
      messages.push(...chatMessages(m, `/messages/${i}`, history)),
    );
    const maxTokens = optionalPositiveInt(request.max_tokens, '/max_tokens');
    const { clientTools, deferred } = messagesTools(request.tools, history);
    return {
      messages,
      clientTools,
      stream: request.stream === true,
      ...(maxTokens ? { maxTokens } : {}),
      ...(deferred ? { deferred } : {}),
    };
  },
  turnInput: (request) => ({
    messages: request.messages,
    clientTools: request.clientTools,
    ...(request.maxTokens ? { maxTokens: request.maxTokens } : {}),
    ...(request.deferred ? { deferred: request.deferred } : {}),
  }),
  wantsStream: (request) => request.stream,
  reply: (result, _request, ctx) => ({
    ...message(ctx, result),
    content: blocks(result),
    tool_search: toolSearchField(result),
  }),
  streamStart(stream, ctx) {
    stream.send({ type: 'message_start', message: { ...message(ctx), content: [] } }, 'message_start');
  },
  streamStep: (stream) => stream.send({ type: 'ping' }, 'ping'),
  streamEnd(stream, result) {
    blocks(result).forEach((block, index) => {
      if (block.type === 'tool_search_tool_result') {
        stream.send({ type: 'content_block_start', index, content_block: block }, 'content_block_start');
        stream.send({ type: 'content_block_stop', index }, 'content_block_stop');
        return;
      }
      const start = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
      stream.send({ type: 'content_block_start', index, content_block: start }, 'content_block_start');
      const delta =
        block.type === 'text'
          ? { type: 'text_delta', text: block.text }
          : { type: 'input_json_delta', partial_json: JSON.stringify(block.input) };
      stream.send({ type: 'content_block_delta', index, delta }, 'content_block_delta');
      stream.send({ type: 'content_block_stop', index }, 'content_block_stop');
    });
    const usage = { input_tokens: result.usage.input, output_tokens: result.usage.output };
    stream.send(
      {
        type: 'message_delta',
        delta: { stop_reason: stopReason(result), stop_sequence: null },
        usage,
        tool_search: toolSearchField(result),
      },
      'message_delta',
    );
    stream.send({ type: 'message_stop' }, 'message_stop');
  },
  error: (status, error) => ({
    type: 'error',
    error: {
      type: ERROR_TYPES[status] ?? 'api_error',
      message: error.message,
      code: error.code,
      ...(error.details ? { details: error.details } : {}),
    },
  }),
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

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use' | 'server_tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_search_tool_result'; tool_use_id: string; content: unknown };

function blocks(result: TurnResult): Block[] {
  const out: Block[] = [...(result.serverBlocks ?? []).map((block) => ({ ...block }) as Block)];
  if (result.message.content) out.push({ type: 'text', text: result.message.content });
  for (const call of result.message.tool_calls ?? []) {
    if (call.type === 'function')
      out.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseInput(call.function.arguments) });
  }
  return out;
}

function stopReason(result: TurnResult): string {
  return result.finishReason === 'tool_calls'
    ? 'tool_use'
    : result.finishReason === 'length'
      ? 'max_tokens'
      : 'end_turn';
}

/**
 * The request's tools: custom tools are client tools; those with `defer_loading: true` and the tool-search
 * server tool are the deferred set (deferred.ts). Deferred tools without a server tool are searched by one of the
 * client's own tools (Anthropic's custom tool search), so at least one tool must not be deferred, as on the API.
 * Other server tools are refused.
 */
function messagesTools(
  value: unknown,
  history: History,
): { clientTools: ClientFunctionTool[]; deferred?: DeferredTools } {
  const { loaded, references } = history;
  const clientTools: ClientFunctionTool[] = [];
  const tools: ClientFunctionTool[] = [];
  const raw: Record<string, unknown>[] = [];
  let search: { tool: Record<string, unknown>; variant: 'bm25' | 'regex' } | undefined;
  arrayAt(value, '/tools', { optional: true }).forEach((item, i) => {
    const at = `/tools/${i}`;
    const record = recordAt(item, at);
    const known = typeof record.type === 'string' ? SEARCH_TOOL_TYPES[record.type] : undefined;
    if (known) {
      if (record.name !== undefined && record.name !== known.name)
        throw invalid(`${at}/name`, `must be "${known.name}" for ${String(record.type)}`);
      search = { tool: { ...unmarked(record), name: known.name }, variant: known.variant };
      return;
    }
    if (record.type !== undefined && record.type !== 'custom') {
      throw invalid(
        `${at}/type`,
        'server tools other than tool_search_tool_bm25_20251119 / tool_search_tool_regex_20251119 are not supported; only custom tools can be client tools',
      );
    }
    const schema = record.input_schema;
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
      raw.push(unmarked(record));
    } else clientTools.push(tool);
  });
  if (!search) {
    if (!tools.length) return { clientTools };
    if (!clientTools.length) {
      throw invalid(
        '/tools',
        'tools with defer_loading need a tool search tool (tool_search_tool_bm25_20251119 or tool_search_tool_regex_20251119) or a custom search tool that is not deferred',
      );
    }
    return { clientTools, deferred: { tools, raw, loaded, references } };
  }
  const searchTool = search.tool as NonNullable<DeferredTools['searchTool']>;
  return { clientTools, deferred: { searchTool, variant: search.variant, tools, raw, loaded, references } };
}

/** One Anthropic message as chat messages: `tool_result` blocks become `tool` messages ahead of the user's text. */
function chatMessages(value: unknown, path: string, history: History): ChatCompletionMessageParam[] {
  const record = recordAt(value, path);
  const role = record.role;
  if (role !== 'user' && role !== 'assistant') throw invalid(`${path}/role`, 'must be "user" or "assistant"');
  if (typeof record.content === 'string') return [{ role, content: record.content }];
  if (
    role === 'assistant' &&
    Array.isArray(record.content) &&
    record.content.some((b) => (b as { type?: unknown })?.type === 'tool_search_tool_result')
  ) {
    return assistantWithSearches(record.content, path, history);
  }
  const texts: string[] = [];
  const calls: ChatCompletionMessageToolCall[] = [];
  const results: ChatCompletionMessageParam[] = [];
  arrayAt(record.content, `${path}/content`).forEach((raw, i) => {
    const at = `${path}/content/${i}`;
    const block = recordAt(raw, at);
    if (block.type === 'text') texts.push(requiredText(block.text, `${at}/text`));
    else if (role === 'assistant' && block.type === 'tool_use') {
      calls.push({
        id: requiredString(block.id, `${at}/id`),
        type: 'function',
        function: { name: requiredString(block.name, `${at}/name`), arguments: JSON.stringify(block.input ?? {}) },
      });
    } else if (role === 'user' && block.type === 'tool_result') {
      const id = requiredString(block.tool_use_id, `${at}/tool_use_id`);
      const names = referenceBlockNames(block.content);
      if (names.length) {
        // A custom search tool's result: its `tool_reference` blocks load those tools; the model reads the blocks as JSON.
        const refs = referenceContent(block.content as unknown[], `${at}/content`);
        for (const name of names) if (!history.loaded.includes(name)) history.loaded.push(name);
        history.references.set(id, names);
        results.push({ role: 'tool', tool_call_id: id, content: JSON.stringify(refs) });
        return;
      }
      const content = block.content === undefined ? '' : textContent(block.content, `${at}/content`, ['text']);
      results.push({
        role: 'tool',
        tool_call_id: id,
        content: block.is_error === true ? `Error: ${content}` : content,
      });
    } else if (!(role === 'assistant' && SKIPPED.has(String(block.type)))) {
      throw invalid(
        `${at}/type`,
        role === 'user'
          ? 'must be "text" or "tool_result" (the gateway forwards text)'
          : 'must be "text" or "tool_use"',
      );
    }
  });
  const text = texts.join('\n');
  if (role === 'assistant') return [{ role, content: text || null, ...(calls.length ? { tool_calls: calls } : {}) }];
  return [...results, ...(text ? [{ role: 'user' as const, content: text }] : [])];
}

/**
 * An assistant turn holding tool searches (`server_tool_use` + `tool_search_tool_result`): each search becomes a
 * call and its result, and the blocks after it a new assistant message, exactly as the turn that produced them
 * sent them upstream, so the provider sees the same bytes again. `tool_reference`s load their tools.
 */
function assistantWithSearches(content: unknown[], path: string, history: History): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  let part: unknown[] = [];
  const flush = () => {
    if (part.length) out.push(...chatMessages({ role: 'assistant', content: part }, path, history));
    part = [];
  };
  content.forEach((raw, i) => {
    const at = `${path}/content/${i}`;
    const block = recordAt(raw, at);
    if (block.type === 'server_tool_use') {
      flush();
      const id = requiredString(block.id, `${at}/id`);
      out.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id,
            type: 'function',
            function: { name: requiredString(block.name, `${at}/name`), arguments: JSON.stringify(block.input ?? {}) },
          },
        ],
      });
    } else if (block.type === 'tool_search_tool_result') {
      for (const name of referencedNames(block.content)) if (!history.loaded.includes(name)) history.loaded.push(name);
      out.push({
        role: 'tool',
        tool_call_id: requiredString(block.tool_use_id, `${at}/tool_use_id`),
        content: JSON.stringify(block.content ?? {}),
      });
    } else part.push(raw);
  });
  flush();
  return out;
}

/**
 * A passed-through tool without the client's `cache_control`: the gateway places the request's breakpoints itself
 * (cache-breakpoints.ts), and the client's would count toward the provider's limit of 4 (a deferred tool, outside
 * the cached prefix, carries none).
 */
function unmarked(tool: Record<string, unknown>): Record<string, unknown> {
  const { cache_control: _mark, ...rest } = tool;
  return rest;
}

/**
 * A custom search tool's `tool_result` content: text and `tool_reference` blocks only, reduced to those fields (a
 * `cache_control` a client moves between requests must not change the bytes the upstream sees).
 */
function referenceContent(content: readonly unknown[], path: string): object[] {
  return content.map((raw, i) => {
    const at = `${path}/${i}`;
    const block = recordAt(raw, at);
    if (block.type === 'text') return { type: 'text', text: requiredText(block.text, `${at}/text`) };
    if (block.type === 'tool_reference')
      return { type: 'tool_reference', tool_name: requiredString(block.tool_name, `${at}/tool_name`) };
    throw invalid(`${at}/type`, 'must be "text" or "tool_reference" in a tool search result');
  });
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
