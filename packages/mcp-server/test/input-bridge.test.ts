/**
 * The parked calls behind `input_required`: a round ends with the result or
 * with the questions asked so far; the `requestState` resumes the call only
 * for the caller that started it (another key, or a forged state, gets
 * nothing); an unanswered question is asked again; a call whose client never
 * comes back is aborted once `idleMs` has passed.
 */
import { describe, expect, it, vi } from 'vitest';
import { createInputBridge } from '../src/input-bridge.js';

const done = (text: string) => ({ content: [{ type: 'text' as const, text }] });
const elicit = {
  method: 'elicitation/create' as const,
  params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } },
};

describe('the input_required bridge', () => {
  it('returns the result straight away when nothing is asked', async () => {
    const bridge = createInputBridge();
    expect(await bridge.start('a', async () => done('ok'))).toEqual({ done: done('ok') });
    expect(bridge.size).toBe(0);
  });

  it('parks a call that asks, and resumes it only for its owner', async () => {
    const bridge = createInputBridge();
    const step = await bridge.start('key-a', async (ask, signal) => done(JSON.stringify(await ask(elicit, signal))));
    if (!('requestState' in step)) throw new Error('expected input_required');
    const [key] = Object.keys(step.inputRequests);
    expect(step.inputRequests[key!]).toEqual(elicit);
    expect(step.requestState.length).toBeGreaterThanOrEqual(32);
    expect(bridge.resume('key-b', step.requestState, { [key!]: { action: 'accept' } })).toBeUndefined();
    expect(bridge.resume('key-a', 'forged', { [key!]: { action: 'accept' } })).toBeUndefined();
    expect(await bridge.resume('key-a', step.requestState, { [key!]: { action: 'accept' } })).toEqual({
      done: done('{"action":"accept"}'),
    });
    expect(bridge.resume('key-a', step.requestState, {})).toBeUndefined();
  });

  it('asks again what a retry left unanswered', async () => {
    const bridge = createInputBridge();
    const step = await bridge.start('a', async (ask, signal) => done(JSON.stringify(await ask(elicit, signal))));
    if (!('requestState' in step)) throw new Error('expected input_required');
    const again = await bridge.resume('a', step.requestState, {});
    expect(again && 'inputRequests' in again ? Object.values(again.inputRequests) : []).toEqual([elicit]);
  });

  it('aborts a call whose client does not come back', async () => {
    vi.useFakeTimers();
    try {
      const bridge = createInputBridge(1_000);
      let aborted = false;
      const step = await bridge.start('a', async (ask, signal) => {
        signal.addEventListener('abort', () => (aborted = true));
        return done(JSON.stringify(await ask(elicit, signal).catch(() => 'gone')));
      });
      if (!('requestState' in step)) throw new Error('expected input_required');
      await vi.advanceTimersByTimeAsync(1_001);
      expect(aborted).toBe(true);
      expect(bridge.size).toBe(0);
      expect(bridge.resume('a', step.requestState, {})).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
