/**
 * Serializes a step as an Anthropic message, whole or as the streaming events
 * (`message_start`, content blocks with `text_delta` / `input_json_delta`,
 * `message_delta`, `message_stop`). Usage numbers are rough (characters / 4).
 */
import type { Step } from '@tool-search/mock-openai';
import type { CacheUsage } from './prompt-cache.js';

export const MOCK_ANTHROPIC_MODEL = 'mock-claude';

export interface MessageMeta {
  readonly id: string;
  readonly model: string;
  readonly promptChars: number;
  /** Number of the step in this server's life, for `toolu_` ids. */
  readonly counter: number;
  /** Blocks before the step's own (a server-side search's `server_tool_use` and `tool_search_tool_result`). */
  readonly lead?: readonly object[];
  /** The step's `tool_use` came from the sandbox (programmatic tool calling): its `caller`. */
  readonly caller?: object;
  /** The code-execution container of this message. */
  readonly container?: object;
  /** The prompt's tokens split by the prompt cache (prompt-cache.ts); all `input_tokens` when absent. */
  readonly cache?: CacheUsage;
}

export function message(step: Step, meta: MessageMeta) {
  return {
    id: meta.id,
    type: 'message' as const,
    role: 'assistant' as const,
    model: meta.model,
    content: [...(meta.lead ?? []), block(step, meta)] as ({ type: string; text?: string; input?: unknown } & Record<
      string,
      unknown
    >)[],
    stop_reason: step.kind === 'answer' ? ('end_turn' as const) : ('tool_use' as const),
    stop_sequence: null,
    usage: usage(step, meta),
    ...(meta.container ? { container: meta.container } : {}),
  };
}

/** `[event, data]` pairs of a streamed message. */
export function events(step: Step, meta: MessageMeta): [string, object][] {
  const whole = message(step, meta);
  const blocks: [string, object][] = whole.content.flatMap((content, index): [string, object][] => {
    const streamed = content.type === 'text' || content.type === 'tool_use' || content.type === 'server_tool_use';
    if (!streamed)
      return [
        ['content_block_start', { type: 'content_block_start', index, content_block: content }],
        ['content_block_stop', { type: 'content_block_stop', index }],
      ];
    const start = content.type === 'text' ? { type: 'text', text: '' } : { ...content, input: {} };
    const delta =
      content.type === 'text'
        ? { type: 'text_delta', text: content.text }
        : { type: 'input_json_delta', partial_json: JSON.stringify(content.input) };
    return [
      ['content_block_start', { type: 'content_block_start', index, content_block: start }],
      ['ping', { type: 'ping' }],
      ['content_block_delta', { type: 'content_block_delta', index, delta }],
      ['content_block_stop', { type: 'content_block_stop', index }],
    ];
  });
  return [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          ...whole,
          content: [],
          stop_reason: null,
          usage: { ...whole.usage, output_tokens: 0 },
        },
      },
    ],
    ...blocks,
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: whole.stop_reason, stop_sequence: null },
        usage: { output_tokens: whole.usage.output_tokens },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  ];
}

export function errorBody(type: string, message: string) {
  return { type: 'error' as const, error: { type, message } };
}

export function modelList(created: string) {
  return {
    data: [{ type: 'model', id: MOCK_ANTHROPIC_MODEL, display_name: 'Mock Claude', created_at: created }],
    has_more: false,
    first_id: MOCK_ANTHROPIC_MODEL,
    last_id: MOCK_ANTHROPIC_MODEL,
  };
}

function block(step: Step, meta: MessageMeta) {
  if (step.kind === 'answer') return { type: 'text' as const, text: step.text };
  return {
    type: 'tool_use' as const,
    id: `toolu_mock_${meta.counter}`,
    name: step.name,
    input: step.args,
    ...(meta.caller ? { caller: meta.caller } : {}),
  };
}

function usage(step: Step, meta: MessageMeta) {
  const output = step.kind === 'answer' ? step.text.length : JSON.stringify(step.args).length + step.name.length;
  const cache = meta.cache ?? {
    input_tokens: Math.ceil(meta.promptChars / 4),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  return { ...cache, output_tokens: Math.ceil(output / 4) };
}
