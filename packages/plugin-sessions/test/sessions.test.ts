import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import OpenAI from 'openai';
import { createKernel, type Kernel, type RunRequest, type ToolCallOutcome } from '@tool-search/kernel';
import { openaiUpstream, runTurn, sessionTurnRunner } from '@tool-search/gateway';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createSessionHost, type SessionHost } from '@tool-search/sessions';
import { sessionsPlugin, type AgentEntry } from '@tool-search/plugin-sessions';

const NO_SCRIPT = 'Mock model: no script found in the last user message.';
const steps = (list: readonly object[]) => `tool search qa steps ${JSON.stringify(list)}`;

let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(async () => {
  await mock.close();
});

function setup(options: { visibility?: unknown; agents?: AgentEntry[]; bind?: boolean } = {}): {
  kernel: Kernel;
  host: SessionHost;
} {
  const host = createSessionHost();
  const kernel = createKernel({
    plugins: [sessionsPlugin({ host, visibility: options.visibility, agents: options.agents ?? [] })],
  });
  if (options.bind !== false)
    host.bind(sessionTurnRunner({ kernel, mode: 'direct', countTokens: false, upstream: upstream() }));
  return { kernel, host };
}

function upstream() {
  return openaiUpstream(new OpenAI({ baseURL: mock.url, apiKey: 'mock', maxRetries: 0 }), 'mock-model');
}

async function call(
  kernel: Kernel,
  request: RunRequest,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolCallOutcome> {
  const run = await kernel.createRun(request);
  try {
    return await run.call(name, args);
  } finally {
    await run.close();
  }
}

function data(outcome: ToolCallOutcome): Record<string, any> {
  if (outcome.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(outcome)}`);
  return outcome.result.structuredContent as Record<string, any>;
}

function code(outcome: ToolCallOutcome): string | undefined {
  return outcome.status === 'error' ? outcome.error.code : undefined;
}

describe('session tools over real gateway turns', () => {
  it('a turn spawns a sub-agent, waits on it with sessions_send and lists both sessions; transcripts are recorded', async () => {
    const { kernel, host } = setup();
    const message = steps([
      { tool: 'sessions_spawn', args: { task: 'say hello', label: 'kid' } },
      { tool: 'sessions_send', args: { sessionId: '{{sessionId}}', message: 'and again', timeoutSeconds: 60 } },
      { tool: 'sessions_list', args: { messageLimit: 2 } },
    ]);
    const result = await runTurn(
      { kernel, mode: 'direct', countTokens: false, upstream: upstream() },
      { sessionId: 'parent', messages: [{ role: 'user', content: message }] },
    );
    expect(result.toolCalls.map((c) => `${c.name}:${c.status}`)).toEqual([
      'sessions_spawn:ok',
      'sessions_send:ok',
      'sessions_list:ok',
    ]);

    const sessions = await host.store.list();
    const child = sessions.find((s) => s.kind === 'spawn')!;
    expect(child).toMatchObject({
      parentId: 'parent',
      label: 'kid',
      mode: 'run',
      status: 'idle',
      turns: 2,
      key: `agent:main:${child.sessionId}`,
    });
    const childLines = await host.store.transcript(child.sessionId);
    expect(childLines.map((l) => `${l.role}:${l.content}`)).toEqual([
      'user:say hello',
      `assistant:${NO_SCRIPT}`,
      'user:and again',
      `assistant:${NO_SCRIPT}`,
    ]);

    // The parent's transcript has the user message, its three tool calls and the answer.
    // (plus the child's announce, posted back when its first run finished).
    const all = await host.store.transcript('parent');
    expect(all.filter((l) => l.announce).map((l) => l.announce)).toEqual([{ from: child.key, status: 'ok' }]);
    const parentLines = all.filter((l) => !l.announce);
    expect(parentLines.map((l) => l.tool?.name ?? l.role)).toEqual([
      'user',
      'sessions_spawn',
      'sessions_send',
      'sessions_list',
      'assistant',
    ]);
    const send = JSON.parse(parentLines[2]!.content!);
    expect(send).toMatchObject({ status: 'ok', reply: NO_SCRIPT, sessionKey: child.key });
    const listed = JSON.parse(result.message.content!.replace(/^Steps done\. Last result: /, ''));
    expect(listed.sessions.map((s: { sessionKey: string }) => s.sessionKey).sort()).toEqual(
      [child.key, 'agent:main:parent'].sort(),
    );
    expect(listed.sessions.find((s: { kind: string }) => s.kind === 'spawn')).toMatchObject({
      parentKey: 'agent:main:parent',
      messages: [{ role: 'user', content: 'and again' }, { role: 'assistant' }],
    });
    await kernel.close();
  });

  it('sessions_send with timeoutSeconds 0 returns at once and the turn still runs', async () => {
    const { kernel, host } = setup();
    await host.store.upsert('parent', {});
    await host.store.upsert('child', { kind: 'spawn', parentId: 'parent', mode: 'session' });
    expect(
      data(
        await call(kernel, { sessionId: 'parent' }, 'sessions_send', {
          sessionId: 'child',
          message: 'ping',
          timeoutSeconds: 0,
        }),
      ),
    ).toMatchObject({ status: 'accepted' });
    await host.turn('child', 'after', {}); // queued behind the fire-and-forget turn
    expect((await host.store.transcript('child')).filter((l) => l.role === 'user').map((l) => l.content)).toEqual([
      'ping',
      'after',
    ]);
    await kernel.close();
  });

  it('sessions_history hides tool lines unless includeTools; session_status shows the card', async () => {
    const { kernel, host } = setup();
    await runTurn(
      { kernel, mode: 'direct', countTokens: false, upstream: upstream() },
      { sessionId: 's1', messages: [{ role: 'user', content: steps([{ tool: 'agents_list', args: {} }]) }] },
    );
    const plain = data(await call(kernel, { sessionId: 's1' }, 'sessions_history', {}));
    expect(plain.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    const withTools = data(
      await call(kernel, { sessionId: 's1' }, 'sessions_history', { sessionKey: 'agent:main:s1', includeTools: true }),
    );
    // The last tool line is the first sessions_history call itself (a direct call in s1 is recorded too).
    expect(withTools.messages.map((m: { role: string; tool?: { name: string } }) => m.tool?.name ?? m.role)).toEqual([
      'user',
      'agents_list',
      'assistant',
      'sessions_history',
    ]);
    expect(withTools.messages[1]).toMatchObject({ tool: { name: 'agents_list', status: 'ok' } });
    const card = data(await call(kernel, { sessionId: 's1' }, 'session_status'));
    // history and status are tool calls of s1 too, so its count keeps growing; at least the first turn's 3 lines.
    expect(card).toMatchObject({ sessionKey: 'agent:main:s1', agentId: 'main', kind: 'main', model: 'mock-model' });
    expect(card.messageCount).toBeGreaterThanOrEqual(3);
    expect(host.bound).toBe(true);
    await kernel.close();
  });
});

describe('tools.sessions.visibility', () => {
  async function tree(visibility?: string) {
    const { kernel, host } = setup({ visibility, bind: false });
    await host.store.upsert('a', {});
    await host.store.upsert('b', { kind: 'spawn', parentId: 'a' });
    await host.store.upsert('b2', { kind: 'spawn', parentId: 'b' });
    await host.store.upsert('c', {});
    const seen = async (as: string) =>
      (data(await call(kernel, { sessionId: as }, 'sessions_list')).sessions as { sessionId: string }[])
        .map((s) => s.sessionId)
        .sort();
    return { kernel, seen };
  }

  it('tree (the default): a session sees itself and what it spawned, transitively', async () => {
    const { kernel, seen } = await tree();
    expect(await seen('a')).toEqual(['a', 'b', 'b2']);
    expect(await seen('b')).toEqual(['b', 'b2']);
    expect(await seen('c')).toEqual(['c']);
    expect(code(await call(kernel, { sessionId: 'b' }, 'sessions_history', { sessionId: 'a' }))).toBe(
      'SESSION_NOT_VISIBLE',
    );
    expect(code(await call(kernel, { sessionId: 'a' }, 'session_status', { sessionKey: 'agent:main:c' }))).toBe(
      'SESSION_NOT_VISIBLE',
    );
    expect(code(await call(kernel, { sessionId: 'a' }, 'sessions_send', { sessionId: 'c', message: 'hi' }))).toBe(
      'SESSION_NOT_VISIBLE',
    );
  });

  it('self sees only itself; all sees everything', async () => {
    expect(await (await tree('self')).seen('a')).toEqual(['a']);
    expect(await (await tree('all')).seen('c')).toEqual(['a', 'b', 'b2', 'c']);
  });

  it('unknown sessions, a key that does not match its id, and a wrong visibility value are coded', async () => {
    const { kernel } = await tree('all');
    expect(code(await call(kernel, { sessionId: 'a' }, 'sessions_history', { sessionId: 'nope' }))).toBe(
      'SESSION_UNKNOWN',
    );
    expect(code(await call(kernel, { sessionId: 'a' }, 'sessions_history', { sessionKey: 'agent:other:b' }))).toBe(
      'SESSION_UNKNOWN',
    );
    expect(() => setup({ visibility: 'everyone' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', path: '/tools/sessions/visibility' }),
    );
  });

  it('a session cannot send to itself', async () => {
    const { kernel } = await tree();
    expect(code(await call(kernel, { sessionId: 'a' }, 'sessions_send', { sessionId: 'a', message: 'hi' }))).toBe(
      'SESSION_SEND_SELF',
    );
  });
});

describe('agents.list[].subagents.allowAgents', () => {
  const agents: AgentEntry[] = [
    { id: 'main', default: true, subagents: { allowAgents: ['coder'] } },
    { id: 'coder', name: 'Coder' },
    { id: 'ops', subagents: { allowAgents: ['*'] } },
  ];

  it('agents_list shows the caller and the agents it may spawn', async () => {
    const { kernel } = setup({ agents, bind: false });
    expect(
      data(await call(kernel, { sessionId: 'm', agentId: 'main' }, 'agents_list')).agents.map(
        (a: { id: string }) => a.id,
      ),
    ).toEqual(['main', 'coder']);
    expect(
      data(await call(kernel, { sessionId: 'k', agentId: 'coder' }, 'agents_list')).agents.map(
        (a: { id: string }) => a.id,
      ),
    ).toEqual(['coder']);
    expect(
      data(await call(kernel, { sessionId: 'o', agentId: 'ops' }, 'agents_list')).agents.map(
        (a: { id: string }) => a.id,
      ),
    ).toEqual(['ops', 'main', 'coder']);
    // Without an agentId the run is the default agent's.
    expect(data(await call(kernel, { sessionId: 'd' }, 'agents_list')).requester).toBe('main');
  });

  it('spawning an agent outside allowAgents is refused, naming the rule; an unknown one is AGENT_UNKNOWN', async () => {
    const { kernel } = setup({ agents, bind: false });
    const refused = await call(kernel, { sessionId: 'm', agentId: 'main' }, 'sessions_spawn', {
      task: 'x',
      agentId: 'ops',
    });
    expect(code(refused)).toBe('SUBAGENT_NOT_ALLOWED');
    expect(
      code(await call(kernel, { sessionId: 'm', agentId: 'main' }, 'sessions_spawn', { task: 'x', agentId: 'nobody' })),
    ).toBe('AGENT_UNKNOWN');
  });

  it('an allowed agent spawns and its child runs as that agent', async () => {
    const { kernel, host } = setup({ agents });
    const spawned = data(
      await call(kernel, { sessionId: 'm', agentId: 'main' }, 'sessions_spawn', {
        task: 'hi',
        agentId: 'coder',
        mode: 'session',
        thread: true,
      }),
    );
    expect(spawned).toMatchObject({ status: 'accepted', agentId: 'coder', mode: 'session' });
    expect(spawned.childSessionKey).toBe(`agent:coder:${spawned.sessionId}`);
    await host.turn(spawned.sessionId, 'then', { agentId: 'coder' });
    expect(await host.store.get(spawned.sessionId)).toMatchObject({ agentId: 'coder', status: 'idle', turns: 2 });
  });

  it('a sub-agent may not spawn (maxSpawnDepth 1), and running children are capped (maxChildrenPerAgent)', async () => {
    const { kernel, host } = setup({ bind: false });
    host.bind(() => new Promise(() => undefined)); // turns that never finish: children stay running
    await host.store.upsert('kid', { kind: 'spawn', parentId: 'root' });
    const deep = await call(kernel, { sessionId: 'kid' }, 'sessions_spawn', { task: 'x' });
    expect(deep.status === 'error' && deep.error).toMatchObject({
      code: 'SUBAGENT_NOT_ALLOWED',
      message: expect.stringContaining('maxSpawnDepth'),
    });
    for (let i = 0; i < 5; i++)
      expect(data(await call(kernel, { sessionId: 'root' }, 'sessions_spawn', { task: `t${i}` })).status).toBe(
        'accepted',
      );
    await vi.waitFor(async () =>
      expect((await host.store.list()).filter((s) => s.status === 'running')).toHaveLength(5),
    );
    const sixth = await call(kernel, { sessionId: 'root' }, 'sessions_spawn', { task: 't5' });
    expect(sixth.status === 'error' && sixth.error).toMatchObject({
      code: 'SUBAGENT_NOT_ALLOWED',
      message: expect.stringContaining('maxChildrenPerAgent'),
    });
  });

  it('without a bound runner (no gateway), spawning is SESSIONS_UNAVAILABLE', async () => {
    const { kernel } = setup({ bind: false });
    expect(code(await call(kernel, { sessionId: 'm' }, 'sessions_spawn', { task: 'x' }))).toBe('SESSIONS_UNAVAILABLE');
  });
});
