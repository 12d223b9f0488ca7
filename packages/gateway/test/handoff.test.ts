/** A turn suspended on client calls made inside tool_call: resumed with their results, or abandoned after its TTL. */
import { describe, expect, it } from 'vitest';
import { createKernel, type ToolCallOutcome } from '@tool-search/kernel';
import { toolsModePlugin } from '@tool-search/mode-tools';
import { clientToolsPlugin } from '@tool-search/plugin-client-tools';
import { suspendableTurn, TurnAbandoned } from '../src/handoff.js';
import { SuspendedTurns } from '../src/suspended-turns.js';
import type { TurnResult } from '../src/turn.js';

const kernel = () => createKernel({ plugins: [clientToolsPlugin(), toolsModePlugin()] });
const ask = {
  name: 'ask_user',
  description: 'Ask the user a question',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
};

interface Answer {
  readonly outcome?: ToolCallOutcome;
  readonly handed?: readonly string[];
  readonly closed?: () => boolean;
}

function turn(ttlMs: number) {
  return suspendableTurn<Answer>(async (control) => {
    const run = await kernel().createRun({ clientTools: [ask] }, { onClientCall: control.take });
    try {
      const exposure = await run.exposure('tools');
      const work = exposure.call('tool_call', { id: 'client:client:ask_user', args: { q: 'color?' } });
      const outcome = await control.outcome(run, work, (calls) => ({
        handed: calls.map((call) => call.callId),
        closed: () => run.closed,
      }));
      return { outcome };
    } finally {
      await run.close();
    }
  }, ttlMs);
}

describe('suspendable turns', () => {
  it('answers first with the handed-off call, then with the outcome once the client result arrives', async () => {
    const first = await turn(60_000);
    expect(first.handed).toHaveLength(1);
    expect(first.suspended?.callIds).toEqual(first.handed);
    const final = await first.suspended!.resume(new Map([[first.handed![0]!, 'teal']]));
    expect(final.outcome).toMatchObject({ status: 'ok', result: { content: [{ type: 'text', text: 'teal' }] } });
  });

  it('a client that sends no result for a handed call gets an error result, not a hang', async () => {
    const first = await turn(60_000);
    const final = await first.suspended!.resume(new Map());
    expect(final.outcome).toMatchObject({ status: 'ok', result: { isError: true } });
  });

  it('is abandoned after its TTL (or by the server closing): the run closes and a late resume is refused', async () => {
    const expired = await turn(20);
    const closing = await turn(60_000);
    closing.suspended!.abandon();
    for (const first of [expired, closing]) {
      await until(() => first.closed!());
      await expect(first.suspended!.resume(new Map())).rejects.toBeInstanceOf(TurnAbandoned);
    }
  });

  it('finds the suspended turn from the trailing tool messages, and only once', async () => {
    const first = await turn(60_000);
    // The gateway's own registry (the one its front ends use), not a test-only twin of its lookup.
    const waiting = new SuspendedTurns();
    waiting.add({ suspended: first.suspended } as unknown as TurnResult);
    const messages = [
      { role: 'user' as const, content: 'hi' },
      { role: 'tool' as const, tool_call_id: first.handed![0]!, content: [{ type: 'text' as const, text: 'teal' }] },
    ];
    const found = waiting.take(messages);
    expect(found?.results.get(first.handed![0]!)).toBe('teal');
    expect(waiting.take(messages)).toBeUndefined();
    await found!.turn.resume(found!.results);
  });

  it('leaves requests that answer no suspended call to a new turn', () => {
    expect(new SuspendedTurns().take([{ role: 'tool', tool_call_id: 'call_x', content: 'y' }])).toBeUndefined();
  });
});

/** Waits (bounded) for a condition that an asynchronous close makes true; no timing is asserted. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
