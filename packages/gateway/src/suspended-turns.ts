/**
 * Turns waiting for the results of client calls made inside `tool_call` or
 * code, by handed-off call id. Every front end converts its request to OpenAI
 * chat messages first, so one check serves all three: trailing `tool`
 * messages whose ids a suspended turn handed out resume that turn.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { SuspendedTurn } from './handoff.js';
import type { TurnResult } from './turn.js';

export class SuspendedTurns {
  private readonly waiting = new Map<string, SuspendedTurn<TurnResult>>();

  /** Remembers a turn that answered with handed-off calls. */
  add(result: TurnResult): void {
    if (result.suspended) for (const id of result.suspended.callIds) this.waiting.set(id, result.suspended);
  }

  /** The suspended turn the trailing `tool` messages answer, with their results (it is forgotten here). */
  take(
    messages: readonly ChatCompletionMessageParam[],
  ): { turn: SuspendedTurn<TurnResult>; results: Map<string, string> } | undefined {
    const results = new Map<string, string>();
    let turn: SuspendedTurn<TurnResult> | undefined;
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i];
      if (message?.role !== 'tool') break;
      const owner = this.waiting.get(message.tool_call_id);
      if (!owner || (turn && owner !== turn)) continue;
      turn = owner;
      results.set(message.tool_call_id, contentText(message.content));
    }
    if (!turn) return undefined;
    for (const id of turn.callIds) this.waiting.delete(id);
    return { turn, results };
  }

  /** Ends every waiting turn (server close). */
  abandonAll(): void {
    for (const turn of new Set(this.waiting.values())) turn.abandon();
    this.waiting.clear();
  }
}

function contentText(content: ChatCompletionMessageParam['content']): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}
