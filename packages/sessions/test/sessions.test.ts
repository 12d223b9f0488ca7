import { describe, expect, it, vi } from 'vitest';
import { createSessionHost, MemorySessionStore, type SessionTurnRequest } from '@tool-search/sessions';

const line = (content: string) => ({ role: 'user' as const, content, at: 0 });

describe('MemorySessionStore', () => {
  it('keeps the newest maxMessages entries but counts all of them', async () => {
    const store = new MemorySessionStore({ maxMessages: 3 });
    for (const n of [1, 2, 3, 4, 5]) await store.append('s', line(`m${n}`));
    expect((await store.transcript('s')).map((e) => e.content)).toEqual(['m3', 'm4', 'm5']);
    expect((await store.transcript('s', 2)).map((e) => e.content)).toEqual(['m4', 'm5']);
    expect(await store.get('s')).toMatchObject({ messageCount: 5, key: 'agent:main:s', kind: 'main', status: 'idle' });
  });

  it('cuts long entries and evicts the least recently updated idle session past maxSessions', async () => {
    let clock = 0;
    const store = new MemorySessionStore({ maxSessions: 2, maxEntryChars: 4, now: () => ++clock });
    await store.append('a', line('abcdefgh'));
    expect((await store.transcript('a'))[0]!.content).toBe('abcd…');
    await store.upsert('b', { status: 'running' });
    await store.upsert('a', {}); // a is now the most recent
    await store.upsert('c', {});
    // b is running, so it stays; a is the least recently updated idle one.
    expect((await store.list()).map((s) => s.sessionId).sort()).toEqual(['b', 'c']);
    await store.upsert('d', {});
    expect((await store.list()).map((s) => s.sessionId).sort()).toEqual(['b', 'd']);
  });

  it('upsert keeps fields it is not given and re-keys on a new agent', async () => {
    const store = new MemorySessionStore();
    await store.upsert('x', { kind: 'spawn', parentId: 'p', label: 'l' });
    const next = await store.upsert('x', { agentId: 'coder', label: undefined });
    expect(next).toMatchObject({ kind: 'spawn', parentId: 'p', label: 'l', agentId: 'coder', key: 'agent:coder:x' });
  });
});

describe('createSessionHost', () => {
  it('runs turns of one session one after another, sending the kept transcript and the new message', async () => {
    const host = createSessionHost();
    const seen: SessionTurnRequest[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    host.bind(async (request) => {
      seen.push(request);
      if (seen.length === 1) await gate;
      // What the gateway's recorder would do for this turn.
      await host.store.append(request.sessionId, line(request.messages.at(-1)!.content));
      await host.store.append(request.sessionId, { role: 'assistant', content: `re ${seen.length}`, at: 0 });
      return { content: `re ${seen.length}`, finishReason: 'stop', model: 'm', usage: { input: 2, output: 1 } };
    });
    const first = host.turn('s', 'one', {});
    const second = host.turn('s', 'two', { agentId: 'main' });
    await vi.waitFor(() => expect(seen.length).toBe(1));
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(seen.length).toBe(1); // the second waits for the first, which waits on the gate
    release();
    expect((await first).content).toBe('re 1');
    expect((await second).content).toBe('re 2');
    expect(seen[1]!.messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 're 1' },
      { role: 'user', content: 'two' },
    ]);
    expect(await host.store.get('s')).toMatchObject({ status: 'idle', turns: 2, usage: { input: 4, output: 2 }, model: 'm' });
  });

  it('a failed turn leaves status failed with the error; the next turn still runs', async () => {
    const host = createSessionHost();
    let calls = 0;
    host.bind(async () => {
      if (++calls === 1) throw new Error('provider down');
      return { content: 'ok', finishReason: 'stop', model: 'm' };
    });
    await expect(host.turn('s', 'a', {})).rejects.toThrow('provider down');
    expect(await host.store.get('s')).toMatchObject({ status: 'failed', lastError: 'provider down' });
    expect((await host.turn('s', 'b', {})).content).toBe('ok');
    expect(await host.store.get('s')).toMatchObject({ status: 'idle', turns: 1 });
  });

  it('without a runner a turn is SESSIONS_UNAVAILABLE', async () => {
    const host = createSessionHost();
    expect(host.bound).toBe(false);
    await expect(host.turn('s', 'a', {})).rejects.toMatchObject({ code: 'SESSIONS_UNAVAILABLE' });
  });
});
