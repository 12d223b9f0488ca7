// Background sessions stay on the replica that started them: two exec plugins over one store (two replicas' views).
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type ToolCallOutcome } from '@tool-search/kernel';
import { memoryReplicas, connectRedisState, MemoryStateStore, type StateStore, StateErrors } from '@tool-search/state';
import { stateBackends } from '@tool-search/testing';
import { closeAll, codeOf, execEnv, OPEN, pollToEnd, structured } from './fixtures.js';
import { ExecErrors } from '../src/errors.js';

const backends = stateBackends<StateStore>('the exec replica tests', {
  memory: memoryReplicas,
  redis: connectRedisState,
});
afterEach(async () => {
  await closeAll();
  await backends.closeStores();
});
afterAll(() => backends.close());

async function replicas(kind: 'memory' | 'redis' = 'memory') {
  const [a, b] = await backends.pair(kind, ['gw-a', 'gw-b']);
  return { a: execEnv({ exec: OPEN, state: a }), b: execEnv({ exec: OPEN, state: b }) };
}

// The outcome carries code and message only: the owner's id is the contract the message must name.
const message = (outcome: ToolCallOutcome) => (outcome.status === 'error' ? outcome.error.message : '');

describe.each(backends.kinds)('exec across replicas over a %s store', (kind) => {
  it('a process call on another replica answers PROCESS_ON_OTHER_REPLICA naming the owner; the owner serves it', async () => {
    const { a, b } = await replicas(kind);
    const onA = await a.run();
    const onB = await b.run();
    const { sessionId } = structured(await onA.call('exec', { command: 'sleep 0.3; echo done', background: true })) as {
      sessionId: string;
    };
    for (const action of ['poll', 'log', 'kill', 'clear', 'remove'] as const) {
      const outcome = await onB.call('process', { action, sessionId });
      expect(codeOf(outcome)).toBe(ExecErrors.PROCESS_ON_OTHER_REPLICA);
      expect(message(outcome)).toContain('replica "gw-a"');
    }
    expect(codeOf(await onB.call('process', { action: 'write', sessionId, data: 'x' }))).toBe(
      ExecErrors.PROCESS_ON_OTHER_REPLICA,
    );
    expect(structured(await onB.call('process', { action: 'list' }))).toEqual({
      sessions: [],
      elsewhere: [{ sessionId, replica: 'gw-a' }],
    });
    expect(structured(await onA.call('process', { action: 'list' })).elsewhere).toBeUndefined(); // its own sessions are listed in full
    expect((await pollToEnd(onA, sessionId)).output).toBe('done\n');
  });

  it('an id no replica owns stays PROCESS_SESSION_UNKNOWN, and so does a removed one', async () => {
    const { a, b } = await replicas(kind);
    const onA = await a.run();
    const onB = await b.run();
    expect(codeOf(await onB.call('process', { action: 'poll', sessionId: 'no-such-session' }))).toBe(
      ExecErrors.PROCESS_SESSION_UNKNOWN,
    );
    const { sessionId } = structured(await onA.call('exec', { command: 'echo hi', background: true })) as {
      sessionId: string;
    };
    await pollToEnd(onA, sessionId);
    structured(await onA.call('process', { action: 'remove', sessionId }));
    expect(codeOf(await onB.call('process', { action: 'poll', sessionId }))).toBe(ExecErrors.PROCESS_SESSION_UNKNOWN);
    expect(structured(await onB.call('process', { action: 'list' }))).toEqual({ sessions: [] });
    expect(codeOf(await onA.call('process', { action: 'poll', sessionId }))).toBe(ExecErrors.PROCESS_SESSION_UNKNOWN);
  });
});

describe('exec across replicas', () => {
  it('another agent on another replica learns nothing about the session (owners are per agent)', async () => {
    const { a, b } = await replicas();
    const onA = await a.run({ agentId: 'main' });
    const { sessionId } = structured(await onA.call('exec', { command: 'sleep 0.2', background: true })) as {
      sessionId: string;
    };
    const otherAgent = await b.run({ agentId: 'intruder' });
    expect(codeOf(await otherAgent.call('process', { action: 'poll', sessionId }))).toBe(
      ExecErrors.PROCESS_SESSION_UNKNOWN,
    );
    expect(structured(await otherAgent.call('process', { action: 'list' }))).toEqual({ sessions: [] });
    expect(codeOf(await (await b.run({ agentId: 'main' })).call('process', { action: 'poll', sessionId }))).toBe(
      ExecErrors.PROCESS_ON_OTHER_REPLICA,
    );
  });

  it('a yielded (not explicitly backgrounded) command is recorded too', async () => {
    const { a, b } = await replicas();
    const started = structured(await (await a.run()).call('exec', { command: 'sleep 0.4', yieldMs: 20 }));
    expect(started.status).toBe('running');
    expect(codeOf(await (await b.run()).call('process', { action: 'poll', sessionId: started.sessionId }))).toBe(
      ExecErrors.PROCESS_ON_OTHER_REPLICA,
    );
  });

  it('a store that is down does not stop exec: the session runs and its owner serves it', async () => {
    const shared = new MemoryStateStore({ replicaId: 'gw-a' });
    const broken = Object.assign(Object.create(shared) as MemoryStateStore, {
      set: async () => {
        throw Object.assign(new Error('down'), { code: StateErrors.STATE_UNAVAILABLE });
      },
    });
    const run = await execEnv({ exec: OPEN, state: broken }).run();
    const { sessionId } = structured(await run.call('exec', { command: 'echo still', background: true })) as {
      sessionId: string;
    };
    expect((await pollToEnd(run, sessionId)).output).toBe('still\n');
  });
});
