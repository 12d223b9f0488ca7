// Waking a session with a system note (the gateway's restart result): a turn where a runner is bound, else an
// announce that waits in the transcript; an unknown session is left alone.
import { describe, expect, it } from 'vitest';
import { createSessionHost, wakeSession, type SessionTurnRequest } from '@tool-search/sessions';

const note = { from: 'gateway', status: 'ok', content: '[gateway restart finished]\nStatus: ok' };

describe('wakeSession', () => {
  it('runs a turn in the session on the note when a runner is bound (the agent answers it)', async () => {
    const host = createSessionHost();
    await host.store.upsert('s1', { agentId: 'main', model: 'm1' });
    const seen: SessionTurnRequest[] = [];
    host.bind(async (request) => {
      seen.push(request);
      return { content: 'noted, carrying on', finishReason: 'stop', model: request.model ?? 'x' };
    });
    expect(await wakeSession(host, 's1', note)).toBe('woken');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ sessionId: 's1', agentId: 'main', model: 'm1' });
    expect(seen[0]!.messages.at(-1)).toEqual({ role: 'user', content: note.content });
  });

  it('without a runner, or when the turn fails, the note waits in the transcript as an announce', async () => {
    const host = createSessionHost();
    await host.store.upsert('s1', { agentId: 'main' });
    expect(await wakeSession(host, 's1', note)).toBe('noted');
    host.bind(async () => {
      throw new Error('provider down');
    });
    expect(await wakeSession(host, 's1', { ...note, status: 'error' })).toBe('noted');
    const transcript = await host.store.transcript('s1');
    expect(transcript.map((entry) => [entry.role, entry.content, entry.announce])).toEqual([
      ['user', note.content, { from: 'gateway', status: 'ok' }],
      ['user', note.content, { from: 'gateway', status: 'error' }],
    ]);
  });

  it('leaves an unknown session alone', async () => {
    const host = createSessionHost();
    expect(await wakeSession(host, 'nobody', note)).toBe('unknown-session');
    expect(await host.store.get('nobody')).toBeUndefined();
  });
});
