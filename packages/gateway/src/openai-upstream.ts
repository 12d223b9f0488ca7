/** The OpenAI Chat Completions upstream, on the official `openai` client. */
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { chatUsage } from './cache-usage.js';
import { messagesJson } from './json-cache.js';
import { postBody, providerFailure, type Upstream, type UpstreamReply, type UpstreamRequest } from './upstream.js';

export function openaiUpstream(client: OpenAI, model: string): Upstream {
  const url = client.baseURL;
  return {
    kind: 'openai',
    url,
    model,
    tools: (exposure) => exposure.toOpenAI(),
    body(request: UpstreamRequest): string {
      const messages: ChatCompletionMessageParam[] = request.system
        ? [{ role: 'system', content: request.system }, ...request.messages]
        : [...request.messages];
      // The tools text is spliced in as it is (serialized once per session), the messages each serialized once per turn.
      return (
        `{"model":${JSON.stringify(model)},"messages":${messagesJson(messages)}` +
        (request.toolsJson !== '[]' ? `,"tools":${request.toolsJson}` : '') +
        (request.maxTokens !== undefined ? `,"max_completion_tokens":${request.maxTokens}` : '') +
        '}'
      );
    },
    async send(body, signal): Promise<UpstreamReply> {
      const completion = await postBody(
        (options) => client.post<ChatCompletion>('/chat/completions', options),
        body,
        signal,
        { kind: 'openai', url },
      );
      const choice = completion?.choices?.[0];
      if (!choice) throw providerFailure(new Error('the response has no choices'), 'openai', url);
      const toolCalls = (choice.message.tool_calls ?? []).flatMap((call) =>
        call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
      );
      return {
        content: choice.message.content ?? null,
        toolCalls,
        stopped: toolCalls.length ? 'tool_calls' : choice.finish_reason === 'length' ? 'length' : 'stop',
        ...(completion.usage ? { usage: chatUsage(completion.usage) } : {}),
      };
    },
  };
}
