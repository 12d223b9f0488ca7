import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { linkSignals } from '../src/signals.js';
import { ok, source, tool } from './helpers.js';

describe('per-call abort signals', () => {
  it('follow every source and unlink on release, so a long-lived run keeps nothing per call', () => {
    const run = new AbortController();
    const caller = new AbortController();
    for (let i = 0; i < 1_000; i++) linkSignals([run.signal, caller.signal, undefined]).release();
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);

    const linked = linkSignals([run.signal, caller.signal]);
    caller.abort('stop');
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('stop');
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('start aborted when a source already is', () => {
    const done = AbortSignal.abort('gone');
    expect(linkSignals([new AbortController().signal, done]).signal.reason).toBe('gone');
  });

  it("leave no listener on the caller's signal after calls settle", async () => {
    const caller = new AbortController();
    const run = await createKernel({ plugins: [source('s', [tool('read', { execute: () => ok('x') })])] }).createRun();
    for (let i = 0; i < 200; i++) await run.call('read', {}, { signal: caller.signal });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});
