import { describe, expect, it } from 'vitest';
import type { SessionLogEntry } from '@tool-search/session-log';
import { silentLogger } from '@tool-search/kernel';
import { Recorder } from '../src/recorder.js';
import { EntryStore } from '../src/store.js';

const entry = (sessionId: string, i: number) =>
  ({ type: 'search', sessionId, runId: `r-${sessionId}`, seq: i }) as unknown as SessionLogEntry;

describe('EntryStore bounds', () => {
  it('keeps at most about maxEntries per session, newest kept', () => {
    const store = new EntryStore(10, 1_000);
    for (let i = 0; i < 100_000; i++) store.add(entry('s', i));
    const kept = store.find('s')!.entries as unknown as { seq: number }[];
    expect(kept.length).toBeLessThanOrEqual(1_125);
    expect(kept.at(-1)!.seq).toBe(99_999);
  });

  it('keeps at most maxSessions sessions, oldest dropped', () => {
    const store = new EntryStore(3, 1_000);
    for (const id of ['a', 'b', 'c', 'd']) store.add(entry(id, 0));
    expect(store.find('a')).toBeUndefined();
    expect(store.find('d')).toBeDefined();
  });
});

describe('Recorder', () => {
  it('logs an entry that failed to finish, with its cause, and keeps recording the run', async () => {
    const warnings: { message: string; data?: Record<string, unknown> }[] = [];
    const logger = {
      ...silentLogger,
      warn: (message: string, data?: Record<string, unknown>) =>
        void warnings.push({ message, ...(data ? { data } : {}) }),
    };
    const store = new EntryStore(10, 100);
    const recorder = new Recorder(store, undefined, () => logger);
    const thrown = new Error('token counter crashed');
    recorder.record('r-s', Promise.reject(thrown));
    recorder.record('r-s', entry('s', 1));
    await recorder.settle('r-s');
    expect(warnings).toEqual([{ message: expect.stringContaining('dropped'), data: { runId: 'r-s', cause: thrown } }]);
    expect((store.find('s')!.entries as unknown as { seq: number }[]).map((e) => e.seq)).toEqual([1]);
  });
});
