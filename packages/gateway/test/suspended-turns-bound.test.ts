/** The per-replica registry of suspended turns stays at its bound under many sessions; a miss starts a new turn. */
import { describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { toolsModePlugin } from '@tool-search/mode-tools';
import { clientToolsPlugin } from '@tool-search/plugin-client-tools';
import { suspendableTurn, TurnAbandoned } from '../src/handoff.js';
import { SuspendedTurns } from '../src/suspended-turns.js';
import type { TurnResult } from '../src/turn.js';

const ask = { name: 'ask_user', description: 'Ask the user', parameters: { type: 'object', properties: {} } };

/** A real turn suspended on one client call (as one session's request would leave it). */
function suspendedTurn() {
  return suspendableTurn<{ handed?: readonly string[]; closed?: () => boolean }>(async (control) => {
    const kernel = createKernel({ plugins: [clientToolsPlugin(), toolsModePlugin()] });
    const run = await kernel.createRun({ clientTools: [ask] }, { onClientCall: control.take });
    try {
      const work = (await run.exposure('tools')).call('tool_call', { id: 'client:client:ask_user', args: {} });
      await control.outcome(run, work, (calls) => ({
        handed: calls.map((call) => call.callId),
        closed: () => run.closed,
      }));
      return {};
    } finally {
      await run.close();
    }
  }, 60_000);
}

const answering = (callId: string) => [{ role: 'tool' as const, tool_call_id: callId, content: 'ok' }];

describe('suspended turns bound', () => {
  it('keeps at most maxTurns; the oldest is abandoned and its results start a new turn (a miss)', async () => {
    const waiting = new SuspendedTurns(4);
    const turns = [];
    for (let session = 0; session < 12; session++) {
      const turn = await suspendedTurn();
      turns.push(turn);
      waiting.add(turn as unknown as TurnResult);
      expect(waiting.size).toBeLessThanOrEqual(4);
    }
    expect(waiting.size).toBe(4);
    const evicted = turns[0]!;
    // The miss path: nothing waits for these results, so the front end runs a new turn with them in its history.
    expect(waiting.take(answering(evicted.handed![0]!))).toBeUndefined();
    await expect(evicted.suspended!.resume(new Map())).rejects.toBeInstanceOf(TurnAbandoned);
    // A turn within the bound still resumes.
    const kept = turns[11]!;
    const found = waiting.take(answering(kept.handed![0]!));
    expect(found?.turn).toBe(kept.suspended);
    expect(waiting.size).toBe(3);
    await found!.turn.resume(found!.results);
    waiting.abandonAll();
    expect(waiting.size).toBe(0);
  });
});
