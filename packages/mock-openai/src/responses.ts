/**
 * `POST /v1/responses` (whole responses, no streaming): the Responses API request read as a chat request, so the
 * same scripted model answers it. Deferred function tools (`defer_loading`) are offered once a `tool_search_output`
 * item in the input loaded them; a client-executed `tool_search` tool is offered as `tool_search`, and a call to it
 * comes back as a `tool_search_call` item (the OpenAI Agents SDK's client tool search).
 */
import { planNextStep } from './plan.js';
import type { ChatMessage, ChatRequest, ChatTool, Step } from './types.js';

type Item = Record<string, unknown>;

export function isResponsesRequest(
  body: unknown,
): body is { input: unknown; tools?: unknown; model?: unknown; instructions?: unknown } {
  return (
    typeof body === 'object' &&
    body !== null &&
    'input' in body &&
    (typeof (body as Item).input === 'string' || Array.isArray((body as Item).input))
  );
}

/** The Responses request as the chat request the plan reads; `clientSearch` when `tool_search` runs on the client. */
export function responsesAsChat(body: { input: unknown; tools?: unknown; instructions?: unknown }): {
  chat: ChatRequest;
  clientSearch: boolean;
} {
  const messages: ChatMessage[] = [];
  if (typeof body.instructions === 'string') messages.push({ role: 'system', content: body.instructions });
  const tools: ChatTool[] = [];
  let clientSearch = false;
  for (const tool of (Array.isArray(body.tools) ? body.tools : []) as Item[]) {
    if (tool.type === 'function' && tool.defer_loading !== true) tools.push(functionTool(tool));
    if (tool.type === 'tool_search') {
      clientSearch = tool.execution === 'client';
      tools.push({
        type: 'function',
        function: {
          name: 'tool_search',
          parameters: (tool.parameters as ChatTool['function']['parameters']) ?? {
            type: 'object',
            properties: { paths: { type: 'array' } },
          },
        },
      });
    }
  }
  const items: Item[] =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input as Item[]);
  for (const item of items) {
    if (typeof item.role === 'string') messages.push({ role: item.role, content: withFiles(item.content) });
    else if (item.type === 'function_call' || item.type === 'tool_search_call') {
      const name = item.type === 'function_call' ? String(item.name) : 'tool_search';
      const args =
        item.type === 'function_call' ? String(item.arguments ?? '{}') : JSON.stringify(item.arguments ?? {});
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: String(item.call_id), type: 'function', function: { name, arguments: args } }],
      });
    } else if (item.type === 'function_call_output') {
      messages.push({
        role: 'tool',
        tool_call_id: String(item.call_id),
        content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output),
      });
    } else if (item.type === 'tool_search_output') {
      const loaded = (Array.isArray(item.tools) ? item.tools : []) as Item[];
      for (const tool of loaded) if (tool.type === 'function') tools.push(functionTool(tool));
      messages.push({
        role: 'tool',
        tool_call_id: String(item.call_id),
        content: JSON.stringify({ tools: loaded.map((tool) => ({ name: tool.name })) }),
      });
    }
  }
  return { chat: { messages, tools }, clientSearch };
}

/** The step as a Responses API response object. */
export function responseObject(
  step: Step,
  meta: { id: string; created: number; model: string; inputTokens?: number; cachedTokens?: number },
  clientSearch: boolean,
) {
  const output =
    step.kind === 'answer'
      ? [
          {
            type: 'message',
            id: `msg_${meta.id}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: step.text, annotations: [] }],
          },
        ]
      : step.name === 'tool_search' && clientSearch
        ? [
            {
              type: 'tool_search_call',
              id: `ts_${meta.id}`,
              call_id: step.callId,
              execution: 'client',
              status: 'completed',
              arguments: step.args,
            },
          ]
        : [
            {
              type: 'function_call',
              id: `fc_${meta.id}`,
              call_id: step.callId,
              name: step.name,
              arguments: step.argumentsText ?? JSON.stringify(step.args),
              status: 'completed',
            },
          ];
  return {
    id: `resp_${meta.id}`,
    object: 'response',
    created_at: meta.created,
    status: 'completed',
    model: meta.model,
    output,
    usage: {
      input_tokens: meta.inputTokens ?? 1,
      input_tokens_details: { cached_tokens: Math.min(meta.inputTokens ?? 1, meta.cachedTokens ?? 0) },
      output_tokens: 1,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: (meta.inputTokens ?? 1) + 1,
    },
  };
}

export function planResponse(body: { input: unknown; tools?: unknown; instructions?: unknown }): {
  step: Step;
  clientSearch: boolean;
} {
  const { chat, clientSearch } = responsesAsChat(body);
  return { step: planNextStep(chat), clientSearch };
}

function functionTool(tool: Item): ChatTool {
  return {
    type: 'function',
    function: {
      name: String(tool.name),
      ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
      parameters: (tool.parameters as ChatTool['function']['parameters']) ?? {},
    },
  };
}

/** The text, or the parts as they are when they hold `input_file` parts (the plan reads the PDFs in them). */
function withFiles(content: unknown): ChatMessage['content'] {
  if (Array.isArray(content) && (content as Item[]).some((part) => part.type === 'input_file'))
    return content as ChatMessage['content'];
  return contentText(content);
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Item[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}
