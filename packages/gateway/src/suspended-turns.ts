/**
 * Turns waiting for the results of client calls made inside `tool_call` or
 * code, by handed-off call id. Every front end converts its request to OpenAI
 * chat messages first, so one check serves all three: trailing `tool`
 * messages whose ids a suspended turn handed out resume that turn.
 *
 * Bounded: at most `maxTurns` wait here (default 1,024). Past it the oldest is
 * abandoned and forgotten (a turn its TTL abandoned waits here until then). A
 * miss (results for a forgotten turn) is no resume: the request runs as a new
 * turn with those results in its history.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { SuspendedTurn } from './handoff.js';
import type { TurnResult } from './turn.js';

export class SuspendedTurns {
  private readonly waiting = new Map<string, SuspendedTurn<TurnResult>>();
  /** The turns waiting, oldest first. */
  private readonly turns = new Set<SuspendedTurn<TurnResult>>();

  constructor(private readonly maxTurns = 1024) {}

  /** Turns waiting here now. */
  get size(): number {
    return this.turns.size;
  }

  /** Remembers a turn that answered with handed-off calls; past `maxTurns` the oldest is abandoned. */
  add(result: TurnResult): void {
    const turn = result.suspended;
    if (!turn) return;
    this.turns.add(turn);
    for (const id of turn.callIds) this.waiting.set(id, turn);
    while (this.turns.size > this.maxTurns) {
      const oldest = this.turns.values().next().value!;
      this.forget(oldest);
      oldest.abandon();
    }
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
    this.forget(turn);
    return { turn, results };
  }

  private forget(turn: SuspendedTurn<TurnResult>): void {
    this.turns.delete(turn);
    for (const id of turn.callIds) if (this.waiting.get(id) === turn) this.waiting.delete(id);
  }

  /** Ends every waiting turn (server close). */
  abandonAll(): void {
    for (const turn of this.turns) turn.abandon();
    this.turns.clear();
    this.waiting.clear();
  }
}

function contentText(content: ChatCompletionMessageParam['content']): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}
