/** Issue 46: OpenClaw's main session ids and keys (`agent:<agentId>:main`), one per agent and, behind keys, per key. */
import { describe, expect, it } from 'vitest';
import {
  MAIN_SESSION_KEY,
  MemorySessionStore,
  mainSessionId,
  parseMainSessionId,
  sessionIdsOfKey,
  sessionKey,
} from '@tool-search/sessions';

describe('the main session', () => {
  it('has one id per agent (and per key), and the key agent:<agentId>:main', async () => {
    expect(mainSessionId()).toBe('main');
    expect(mainSessionId('coder')).toBe('main:coder');
    expect(mainSessionId('coder', 'ops')).toBe('main:coder@ops');
    expect(sessionKey('main', 'main')).toBe('agent:main:main');
    expect(sessionKey('ops', 'main')).toBe('agent:ops:main');
    expect(sessionKey('coder', 'main:coder')).toBe('agent:coder:main');
    expect(sessionKey('coder', 'main:coder@k')).toBe('agent:coder:main@k');
    // Another agent's main id keeps its own name; other ids are unchanged.
    expect(sessionKey('coder', 'main:other')).toBe('agent:coder:main:other');
    expect(sessionKey('coder', 'spawn-1')).toBe('agent:coder:spawn-1');
    const store = new MemorySessionStore();
    expect((await store.upsert('main:coder', { agentId: 'coder' })).key).toBe('agent:coder:main');
    expect(MAIN_SESSION_KEY).toBe('main');
  });

  it('a key names the ids it may be: the agent’s own, and the bare one for the default agent', () => {
    expect(sessionIdsOfKey('agent:coder:main', 'main')).toEqual(['main:coder']);
    expect(sessionIdsOfKey('agent:main:main', 'main')).toEqual(['main:main', 'main']);
    expect(sessionIdsOfKey('agent:ops:main@k', 'ops')).toEqual(['main:ops@k', 'main@k']);
    expect(sessionIdsOfKey('agent:coder:a:b', 'main')).toEqual(['a:b']);
    expect(sessionIdsOfKey('main', 'main')).toEqual([]);
    expect(parseMainSessionId('main:coder@k')).toEqual({ agentId: 'coder', keyId: 'k' });
    expect(parseMainSessionId('mainly')).toBeUndefined();
  });
});
