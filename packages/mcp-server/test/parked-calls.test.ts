/**
 * The records and relay behind parked 2026-07-28 calls (parked-calls.ts),
 * over the in-process store's two replica views: a retry on the replica
 * that does not hold the call gets the holder's next step, even when the
 * resumed call runs longer than the silence window (heartbeats);
 * a holder that never answers is `MCP_PARKED_CALL_LOST`; the record names
 * neither the state nor the caller in the clear and is gone once the call ends.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStateStore } from '@tool-search/state';
import { McpServerErrors } from '../src/index.js';
import { createInputBridge } from '../src/input-bridge.js';
import { createParkedCalls, type ParkedCalls } from '../src/parked-calls.js';

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const elicit = {
  method: 'elicitation/create' as const,
  params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } },
};
const done = (text: string) => ({ content: [{ type: 'text' as const, text }] });

describe('parked calls across replicas', () => {
  const cleanup: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function twoReplicas(timing: { ackMs?: number; heartbeatMs?: number } = {}) {
    const state = new MemoryStateStore({ replicaId: 'a' });
    cleanup.push(() => state.close());
    const holder = createParkedCalls({ state, logger, ...timing });
    const other = createParkedCalls({ state: state.asReplica('b'), logger, ...timing });
    const bridge = createInputBridge(60_000, holder.hooks);
    await holder.listen(bridge);
    await other.listen(createInputBridge(60_000, other.hooks));
    cleanup.push(
      () => bridge.close(),
      () => holder.close(),
      () => other.close(),
    );
    return { state, bridge, holder, other };
  }

  /** Polls until `check` holds (records are written in the background). */
  async function eventually(check: () => Promise<boolean>): Promise<void> {
    for (let tries = 0; !(await check()); tries++) {
      if (tries > 200) throw new Error('condition not met within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('relays a retry to the holder and returns its step; the record is opaque and goes with the call', async () => {
    const { state, bridge, other } = await twoReplicas();
    const step = await bridge.start('owner-1', async (ask, signal) =>
      done(`got ${JSON.stringify(await ask(elicit, signal))}`),
    );
    if (!('requestState' in step)) throw new Error('expected input_required');
    const [key] = Object.keys(step.inputRequests);
    const recordKey = `mcp:parked:${createHash('sha256').update(step.requestState).digest('base64url')}`;
    await eventually(async () => (await state.get(recordKey)) !== undefined);
    expect(state.size).toBe(1);
    expect(await state.get(recordKey)).not.toContain('owner-1');

    expect(await other.resumeElsewhere('owner-2', step.requestState, {}, new AbortController().signal)).toBeUndefined();
    const resumed = await other.resumeElsewhere(
      'owner-1',
      step.requestState,
      { [key!]: { action: 'accept' } },
      new AbortController().signal,
    );
    expect(resumed).toEqual({ done: done('got {"action":"accept"}') });
    await eventually(async () => (await state.get(recordKey)) === undefined);
  });

  it('keeps waiting past the silence window while the holder beats', async () => {
    const { bridge, other } = await twoReplicas({ ackMs: 10_000, heartbeatMs: 300 });
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const step = await bridge.start('o', async (ask, signal) => {
      await ask(elicit, signal);
      await slow;
      return done('finished');
    });
    if (!('requestState' in step)) throw new Error('expected input_required');
    const [key] = Object.keys(step.inputRequests);
    const waiting = other.resumeElsewhere(
      'o',
      step.requestState,
      { [key!]: { action: 'accept' } },
      new AbortController().signal,
    );
    // Twice the silence window (4 beats): only the heartbeats keep the wait alive. A sleep on purpose: the time is the behaviour.
    await new Promise((resolve) => setTimeout(resolve, 2_400));
    release();
    expect(await waiting).toEqual({ done: done('finished') });
  });

  it('is MCP_PARKED_CALL_LOST when the holder never answers', async () => {
    const state = new MemoryStateStore({ replicaId: 'b' });
    cleanup.push(() => state.close());
    const other: ParkedCalls = createParkedCalls({ state, logger, ackMs: 200 });
    await other.listen(createInputBridge());
    cleanup.push(() => other.close());
    // A replica that parked a call and died: its record outlives it.
    const ghost = createParkedCalls({ state: state.asReplica('ghost'), logger });
    ghost.hooks.onPark?.('state-of-a-dead-replica', 'o', 60_000);
    await eventually(async () => state.size === 1);
    await expect(
      other.resumeElsewhere('o', 'state-of-a-dead-replica', {}, new AbortController().signal),
    ).rejects.toMatchObject({
      code: McpServerErrors.MCP_PARKED_CALL_LOST,
    });
  });
});
