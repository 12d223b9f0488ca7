/**
 * The OpenAI Responses upstream (`POST /responses`), on the official `openai`
 * client: the wire format of OpenAI's programmatic tool calling. The turn's
 * chat messages become input items (user and assistant messages,
 * `function_call` and `function_call_output` items), system text goes to
 * `instructions`, tools are Responses function tools. Requests are stateless
 * (`store: false`): the whole conversation goes each time, and an assistant
 * step that holds a program goes back as the output items the provider sent
 * (the `program` item with its fingerprint, the calls with their `caller`).
 * The installed `openai` SDK (6.10) has no types for programmatic tool calling
 * yet: the documented wire format is spoken as JSON.
 */
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { responsesUsage } from './cache-usage.js';
import { openaiProgrammaticTools, sandboxCaller } from './programmatic.js';
import { postBody, type Upstream, type UpstreamReply, type UpstreamRequest } from './upstream.js';

type Item = Record<string, unknown>;
interface ResponsesReply {
  readonly output?: readonly Item[];
  readonly status?: string;
  readonly usage?: Parameters<typeof responsesUsage>[0];
}

export function openaiResponsesUpstream(client: OpenAI, model: string): Upstream {
  const url = client.baseURL;
  return {
    kind: 'openai',
    url,
    model,
    tools: (exposure) => exposure.toOpenAI().map(responsesTool),
    programmaticTools: openaiProgrammaticTools,
    body(request: UpstreamRequest): string {
      const { instructions, input } = toResponsesInput(request.messages, request.providerItems);
      const text = [request.system, ...instructions].filter(Boolean).join('\n\n');
      return (
        `{"model":${JSON.stringify(model)},"store":false` +
        (text ? `,"instructions":${JSON.stringify(text)}` : '') +
        `,"input":${JSON.stringify(input)}` +
        (request.toolsJson !== '[]' ? `,"tools":${responsesToolsJson(request.toolsJson)}` : '') +
        (request.maxTokens !== undefined ? `,"max_output_tokens":${request.maxTokens}` : '') +
        '}'
      );
    },
    async send(body, signal): Promise<UpstreamReply> {
      const reply = await postBody((options) => client.post<ResponsesReply>('/responses', options), body, signal, {
        kind: 'openai',
        url,
      });
      const output = Array.isArray(reply?.output) ? reply.output : [];
      const content = output
        .filter((item) => item.type === 'message')
        .flatMap((item) => (Array.isArray(item.content) ? (item.content as Item[]) : []))
        .map((part) => (part.type === 'output_text' && typeof part.text === 'string' ? part.text : ''))
        .join('');
      const toolCalls = output
        .filter((item) => item.type === 'function_call')
        .map((item) => {
          const caller = sandboxCaller(item.caller);
          return {
            id: String(item.call_id),
            name: String(item.name),
            arguments: typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {}),
            ...(caller ? { caller } : {}),
          };
        });
      const programmatic = output.some((item) => item.type === 'program' || item.type === 'program_output');
      return {
        content: content || null,
        toolCalls,
        stopped: toolCalls.length ? 'tool_calls' : reply.status === 'incomplete' ? 'length' : 'stop',
        ...(programmatic ? { providerItems: output } : {}),
        ...(reply.usage ? { usage: responsesUsage(reply.usage) } : {}),
      };
    },
  };
}

/** A Chat Completions function tool as a Responses function tool (flat: `name`, `parameters` at the top). */
function responsesTool(tool: { function: { name: string; description?: string; parameters?: unknown } }) {
  const fn = tool.function;
  return {
    type: 'function',
    name: fn.name,
    ...(fn.description ? { description: fn.description } : {}),
    parameters: fn.parameters ?? { type: 'object', properties: {} },
    strict: false,
  };
}

/**
 * The tools text in Responses form: tools the turn appends in Chat Completions form (a client's deferred tools the
 * gateway loaded) are flattened; a text without any goes as it is (no parse on the common path).
 */
function responsesToolsJson(text: string): string {
  if (!text.includes('"function":{')) return text;
  const tools = JSON.parse(text) as Item[];
  return JSON.stringify(
    tools.map((tool) =>
      tool.type === 'function' && typeof tool.function === 'object' && tool.function !== null
        ? responsesTool(tool as unknown as Parameters<typeof responsesTool>[0])
        : tool,
    ),
  );
}

/** Chat messages → `instructions` texts and Responses input items; `providerItems` go verbatim. */
export function toResponsesInput(
  chat: readonly ChatCompletionMessageParam[],
  providerItems?: ReadonlyMap<ChatCompletionMessageParam, readonly unknown[]>,
): { instructions: string[]; input: unknown[] } {
  const instructions: string[] = [];
  const input: unknown[] = [];
  for (const message of chat) {
    switch (message.role) {
      case 'system':
      case 'developer':
        instructions.push(textOf(message.content));
        break;
      case 'user':
        input.push({ role: 'user', content: textOf(message.content) });
        break;
      case 'assistant': {
        const verbatim = providerItems?.get(message);
        if (verbatim) {
          input.push(...verbatim);
          break;
        }
        const text = textOf(message.content ?? null);
        if (text) input.push({ role: 'assistant', content: text });
        for (const call of message.tool_calls ?? [])
          if (call.type === 'function')
            input.push({
              type: 'function_call',
              call_id: call.id,
              name: call.function.name,
              arguments: call.function.arguments,
            });
        break;
      }
      case 'tool':
        input.push({ type: 'function_call_output', call_id: message.tool_call_id, output: textOf(message.content) });
        break;
      default:
        break;
    }
  }
  return { instructions, input };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof (part as { text?: unknown })?.text === 'string' ? (part as { text: string }).text : ''))
    .join('');
}
