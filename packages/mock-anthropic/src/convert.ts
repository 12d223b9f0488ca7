/**
 * An Anthropic Messages request in the chat shape `planNextStep` reads, so the
 * same script engine drives both mocks: `system` becomes a system message,
 * `tool_use` blocks assistant tool calls, `tool_result` blocks tool messages.
 */
import type { ChatMessage, ChatRequest, ChatToolCall } from '@tool-search/mock-openai';
import { isDeferred, isServerTool, loadedNames, searchToolOf } from './deferred.js';
import { documentParts } from './documents.js';
import type { AnthropicMessage, AnthropicTool, ContentBlock, MessagesRequest } from './types.js';

export function toChatRequest(request: MessagesRequest): ChatRequest {
  const messages: ChatMessage[] = [];
  const system = blockText(request.system);
  if (system) messages.push({ role: 'system', content: system });
  for (const message of request.messages) messages.push(...chatMessages(message));
  return {
    ...(request.model ? { model: request.model } : {}),
    messages,
    tools: visibleTools(request).map((tool) => ({
      type: 'function' as const,
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        ...(tool.input_schema ? { parameters: tool.input_schema } : {}),
      },
    })),
  };
}

/** What the model sees: custom tools not deferred, deferred ones a `tool_reference` loaded, and the search tool. */
function visibleTools(request: MessagesRequest): AnthropicTool[] {
  const tools = request.tools ?? [];
  const loaded = new Set(loadedNames(request));
  const search = searchToolOf(request);
  return [
    ...tools.filter((tool) => !isServerTool(tool) && (!isDeferred(tool) || loaded.has(tool.name))),
    ...(search
      ? [
          {
            name: search.name,
            description: 'Search the deferred tools',
            input_schema: { type: 'object', properties: { query: { type: 'string' } } },
          },
        ]
      : []),
  ];
}

function chatMessages(message: AnthropicMessage): ChatMessage[] {
  if (typeof message.content === 'string') return [{ role: message.role, content: message.content }];
  const blocks = Array.isArray(message.content) ? message.content : [];
  const text = blocks
    .filter((b) => b.type === 'text')
    .map((b) => String((b as { text?: unknown }).text ?? ''))
    .join('');
  if (message.role === 'assistant' && blocks.some((b) => b.type === 'tool_search_tool_result'))
    return assistantWithSearches(blocks);
  if (message.role === 'assistant') {
    const calls: ChatToolCall[] = blocks
      .filter((b): b is ContentBlock & { id: string; name: string; input: unknown } => b.type === 'tool_use')
      .map((b) => ({
        id: b.id,
        type: 'function',
        function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) },
      }));
    return [{ role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) }];
  }
  const results: ChatMessage[] = blocks
    .filter((b): b is ContentBlock & { tool_use_id: string; content?: unknown } => b.type === 'tool_result')
    .map((b) => ({ role: 'tool', tool_call_id: b.tool_use_id, content: blockText(b.content) }));
  const documents = documentParts(blocks);
  // PDFs go to the shared script engine as Chat Completions `file` parts (it answers them like the OpenAI mock).
  if (documents.length) return [...results, { role: 'user', content: [...documents, { type: 'text', text }] }];
  const images = blocks.flatMap(imageUrl);
  // Images go to the shared script engine as Chat Completions `image_url` parts (it answers them like the OpenAI mock).
  if (images.length)
    return [
      ...results,
      {
        role: 'user',
        content: [{ type: 'text', text }, ...images.map((url) => ({ type: 'image_url', image_url: { url } }))],
      },
    ];
  return [...results, ...(text ? [{ role: 'user', content: text }] : [])];
}

/** A base64 `image` block as a data URL (the only image source the mock reads). */
function imageUrl(block: ContentBlock): string[] {
  if (block.type !== 'image') return [];
  const source = (block as { source?: { type?: unknown; media_type?: unknown; data?: unknown } }).source;
  return source?.type === 'base64' && typeof source.media_type === 'string' && typeof source.data === 'string'
    ? [`data:${source.media_type};base64,${source.data}`]
    : [];
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof (part as { text?: unknown })?.text === 'string' ? (part as { text: string }).text : ''))
    .join('');
}

/** An assistant turn holding server-side searches: each search is a call and its result, then the model goes on. */
function assistantWithSearches(blocks: readonly ContentBlock[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let part: ContentBlock[] = [];
  const flush = () => {
    if (part.length) out.push(...chatMessages({ role: 'assistant', content: part }));
    part = [];
  };
  for (const block of blocks) {
    if (block.type === 'server_tool_use') {
      flush();
      const b = block as unknown as { id: string; name: string; input?: unknown };
      out.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } },
        ],
      });
    } else if (block.type === 'tool_search_tool_result') {
      const b = block as unknown as { tool_use_id: string; content?: unknown };
      out.push({ role: 'tool', tool_call_id: b.tool_use_id, content: JSON.stringify(b.content ?? {}) });
    } else part.push(block);
  }
  flush();
  return out;
}
