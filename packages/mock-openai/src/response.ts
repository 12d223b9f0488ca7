/**
 * Serializes a step as an OpenAI chat completion, whole or as SSE chunks.
 * Usage numbers are rough (characters / 4): the mock is not a tokenizer.
 */
import type { ChatRequest, Step } from './types.js';

export const MOCK_MODEL = 'mock-tool-search';

export interface CompletionMeta {
  readonly id: string;
  readonly created: number;
  readonly model: string;
  readonly promptChars: number;
  /** Prompt tokens found in the provider's prompt cache (prompt-cache.ts). */
  readonly cachedTokens?: number;
}

export function completion(step: Step, meta: CompletionMeta) {
  const message =
    step.kind === 'answer'
      ? { role: 'assistant' as const, content: step.text, refusal: null }
      : { role: 'assistant' as const, content: null, refusal: null, tool_calls: [toolCall(step)] };
  return {
    id: meta.id,
    object: 'chat.completion' as const,
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(step) }],
    usage: usage(step, meta),
  };
}

/** The `data:` payloads of a streamed answer, ending with `[DONE]`. */
export function chunks(step: Step, meta: CompletionMeta, request: ChatRequest): string[] {
  const base = { id: meta.id, object: 'chat.completion.chunk' as const, created: meta.created, model: meta.model };
  const chunk = (delta: object, finish: string | null) =>
    JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const out = [chunk({ role: 'assistant', content: '' }, null)];
  if (step.kind === 'answer') out.push(chunk({ content: step.text }, null));
  else out.push(chunk({ tool_calls: [{ index: 0, ...toolCall(step) }] }, null));
  out.push(chunk({}, finishReason(step)));
  if (request.stream_options?.include_usage)
    out.push(JSON.stringify({ ...base, choices: [], usage: usage(step, meta) }));
  out.push('[DONE]');
  return out;
}

export function modelList(created: number) {
  return {
    object: 'list' as const,
    data: [{ id: MOCK_MODEL, object: 'model' as const, created, owned_by: 'tool-search' }],
  };
}

export function errorBody(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}

function toolCall(step: Extract<Step, { kind: 'tool-call' }>) {
  return {
    id: step.callId,
    type: 'function' as const,
    function: { name: step.name, arguments: step.argumentsText ?? JSON.stringify(step.args) },
  };
}

function finishReason(step: Step): 'stop' | 'tool_calls' {
  return step.kind === 'answer' ? 'stop' : 'tool_calls';
}

function usage(step: Step, meta: CompletionMeta) {
  const prompt = Math.ceil(meta.promptChars / 4);
  const completionTokens = Math.ceil(
    (step.kind === 'answer' ? step.text.length : JSON.stringify(step.args).length + step.name.length) / 4,
  );
  return {
    prompt_tokens: prompt,
    completion_tokens: completionTokens,
    total_tokens: prompt + completionTokens,
    prompt_tokens_details: { cached_tokens: Math.min(prompt, meta.cachedTokens ?? 0) },
  };
}
