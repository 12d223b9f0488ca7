/**
 * The Anthropic Messages upstream, on the official `@anthropic-ai/sdk`. The
 * turn's chat messages become Anthropic messages (assistant `tool_calls` →
 * `tool_use` blocks, `tool` messages → `tool_result` blocks in a user turn),
 * system text goes to `system`, tools use @tool-search/provider-formats' Anthropic rendering.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { errorMessage, ToolSearchError } from '@tool-search/kernel';
import { anthropicUsage } from './cache-usage.js';
import { cachedSystemJson, REQUEST_CACHE_CONTROL, toolsMarker } from './cache-breakpoints.js';
import { GatewayErrors } from './errors.js';
import { postBody, type ServerBlock, type Upstream, type UpstreamReply, type UpstreamRequest } from './upstream.js';
import { anthropicProgrammaticTools, sandboxCaller } from './programmatic.js';

/** Anthropic requires `max_tokens`; used when the client sent none. */
export const DEFAULT_MAX_TOKENS = 4096;

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}
interface AnthropicReply {
  readonly content?: readonly {
    type: string;
    text?: string;
    id?: string;
    name?: string;
    input?: unknown;
    tool_use_id?: string;
    content?: unknown;
    caller?: unknown;
  }[];
  readonly stop_reason?: string | null;
  readonly container?: { id?: unknown } | null;
  readonly usage?: Parameters<typeof anthropicUsage>[0];
}

export interface AnthropicUpstreamOptions {
  /**
   * Prompt caching (cache-breakpoints.ts; default on): breakpoints on the session's last non-deferred custom tool
   * (`cacheTools`) and the system text, and the request-level `cache_control` for the conversation. `false` sends no
   * `cache_control` of the gateway's.
   */
  readonly promptCache?: boolean;
}

export function anthropicUpstream(client: Anthropic, model: string, options: AnthropicUpstreamOptions = {}): Upstream {
  const url = client.baseURL;
  const cache = options.promptCache !== false;
  return {
    kind: 'anthropic',
    url,
    model,
    tools: (exposure) => exposure.toAnthropic(),
    programmaticTools: anthropicProgrammaticTools,
    ...(cache ? { cacheTools: toolsMarker() } : {}),
    body(request: UpstreamRequest): string {
      const { system, messages } = toAnthropicMessages(
        request.messages,
        request.serverTools,
        request.toolReferences,
        request.providerItems,
      );
      const systemText = [request.system, ...system].filter(Boolean).join('\n\n');
      return (
        `{"model":${JSON.stringify(model)},"max_tokens":${request.maxTokens ?? DEFAULT_MAX_TOKENS}` +
        (cache ? REQUEST_CACHE_CONTROL : '') +
        (systemText ? `,"system":${cache ? cachedSystemJson(systemText) : JSON.stringify(systemText)}` : '') +
        `,"messages":${JSON.stringify(messages)}` +
        (request.toolsJson !== '[]' ? `,"tools":${request.toolsJson}` : '') +
        (request.container ? `,"container":${JSON.stringify(request.container)}` : '') +
        '}'
      );
    },
    async send(body, signal): Promise<UpstreamReply> {
      const reply = await postBody((options) => client.post<AnthropicReply>('/v1/messages', options), body, signal, {
        kind: 'anthropic',
        url,
      });
      const blocks = Array.isArray(reply?.content) ? reply.content : [];
      const text = blocks
        .filter((b) => b.type === 'text')
        .map((b) => b.text ?? '')
        .join('');
      const toolCalls = blocks
        .filter((b) => b.type === 'tool_use')
        .map((b) => {
          const caller = sandboxCaller(b.caller);
          return {
            id: String(b.id),
            name: String(b.name),
            arguments: JSON.stringify(b.input ?? {}),
            ...(caller ? { caller } : {}),
          };
        });
      const serverBlocks = blocks.flatMap((b): ServerBlock[] =>
        b.type === 'server_tool_use'
          ? [{ type: 'server_tool_use', id: String(b.id), name: String(b.name), input: b.input ?? {} }]
          : b.type === 'tool_search_tool_result'
            ? [{ type: 'tool_search_tool_result', tool_use_id: String(b.tool_use_id), content: b.content ?? {} }]
            : [],
      );
      const container = typeof reply.container?.id === 'string' ? reply.container.id : undefined;
      return {
        content: text || null,
        toolCalls,
        ...(serverBlocks.length ? { serverBlocks } : {}),
        ...(blocks.some(isCodeExecution) ? { providerItems: blocks } : {}),
        ...(container ? { container } : {}),
        stopped: toolCalls.length ? 'tool_calls' : reply.stop_reason === 'max_tokens' ? 'length' : 'stop',
        ...(reply.usage ? { usage: anthropicUsage(reply.usage) } : {}),
      };
    },
  };
}

/** Blocks of programmatic tool calling: the code execution, its result, a call the sandbox made. */
function isCodeExecution(block: { type: string; name?: string; caller?: unknown }): boolean {
  return (
    (block.type === 'server_tool_use' && block.name === 'code_execution') ||
    block.type === 'code_execution_tool_result' ||
    (block.type === 'tool_use' && sandboxCaller(block.caller) !== undefined)
  );
}

/**
 * Chat messages → Anthropic `system` texts and alternating messages (same-role neighbours merged). An assistant
 * message in `providerItems` goes as the blocks the provider sent (programmatic tool calling: the code execution
 * and the calls with their `caller`).
 */
export function toAnthropicMessages(
  chat: readonly ChatCompletionMessageParam[],
  serverTools?: ReadonlySet<string>,
  toolReferences?: ReadonlyMap<string, readonly string[]>,
  providerItems?: ReadonlyMap<ChatCompletionMessageParam, readonly unknown[]>,
): { system: string[]; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const serverCalls = new Set<string>();
  const messages: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], blocks: Block[]) => {
    if (!blocks.length) return;
    const last = messages[messages.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const [index, message] of chat.entries()) {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(textOf(message.content));
        break;
      case 'user':
        push('user', textBlocks(message.content));
        break;
      case 'assistant': {
        const verbatim = providerItems?.get(message);
        if (verbatim) {
          push('assistant', [...(verbatim as Block[])]);
          break;
        }
        const calls = (message.tool_calls ?? []).flatMap((call) => {
          if (call.type !== 'function') return [];
          const server = serverTools?.has(call.function.name) === true;
          if (server) serverCalls.add(call.id);
          const input = parseInput(
            call.function.arguments,
            `/messages/${index}/tool_calls/${call.id}/function/arguments`,
          );
          return [{ type: server ? 'server_tool_use' : 'tool_use', id: call.id, name: call.function.name, input }];
        });
        push('assistant', [...textBlocks(message.content ?? null), ...calls]);
        break;
      }
      case 'tool':
        // A server tool's result is the provider's own block in the assistant turn (Anthropic tool search).
        if (serverCalls.has(message.tool_call_id)) {
          const content = parseInput(textOf(message.content), `/messages/${index}/content`);
          push('assistant', [{ type: 'tool_search_tool_result', tool_use_id: message.tool_call_id, content }]);
        } else if (toolReferences?.get(message.tool_call_id)?.length) {
          const refs = toolReferences
            .get(message.tool_call_id)!
            .map((tool_name) => ({ type: 'tool_reference', tool_name }));
          push('user', [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: refs }]);
        } else
          push('user', [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: textOf(message.content) }]);
        break;
      default:
        break;
    }
  }
  return { system, messages };
}

function textBlocks(content: unknown): Block[] {
  const text = textOf(content);
  return text ? [{ type: 'text', text }] : [];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof (part as { text?: unknown })?.text === 'string' ? (part as { text: string }).text : ''))
    .join('');
}

/**
 * A tool call's JSON arguments as an Anthropic `input` object. Text that is not JSON cannot be sent as `tool_use`
 * input, and no stand-in object takes its place: the request is refused (`REQUEST_INVALID`, the parse error as cause).
 */
function parseInput(text: string, path: string): unknown {
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : {};
  } catch (error) {
    const reason = errorMessage(error);
    throw new ToolSearchError(
      GatewayErrors.REQUEST_INVALID,
      `${path} is not valid JSON (${reason}); an Anthropic tool_use input must be a JSON object`,
      {
        cause: error,
        details: { path },
      },
    );
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { value };
}
