/**
 * Issue 32: sessions_spawn, session_status and agents_list as OpenClaw's Tools document has them. Sub-agent turns run
 * through the gateway's real turn loop against the mock OpenAI provider over HTTP; each test is named after the claim.
 */
import { describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type RunRequest, type ToolCallOutcome } from '@tool-search/kernel';
import { createSessionHost, type SessionHost } from '@tool-search/sessions';
import { sessionsPlugin, SessionsErrors, type AgentEntry, type SpawnLimits } from '@tool-search/plugin-sessions';
import { code, data, useSessionsTestbed } from './fixtures.js';

const NO_SCRIPT = 'Mock model: no script found in the last user message.';
const bed = useSessionsTestbed();

function setup(options: { agents?: AgentEntry[]; limits?: Partial<SpawnLimits> } = {}): {
  kernel: Kernel;
  host: SessionHost;
} {
  const host = createSessionHost();
  const kernel = bed.kernel(host, [
    sessionsPlugin({ host, agents: options.agents ?? [], ...(options.limits ? { limits: options.limits } : {}) }),
  ]);
  return { kernel, host };
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
  } catch (error) {
    return {
      status: 'error',
      toolId: name,
      error: { code: (error as { code: string }).code, message: String(error) },
    } as unknown as ToolCallOutcome;
  } finally {
    await run.close();
  }
}

/** Polls with a generous deadline: a loaded machine runs the child's turn slowly. */
async function eventually<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const until = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const announceOf = (host: SessionHost, sessionId: string) => async () =>
  (await host.store.transcript(sessionId)).find((entry) => entry.announce);

describe('sessions_spawn as documented', () => {
  it('runtime "acp" is refused clearly when no ACP runtime is configured; "subagent" runs', async () => {
    const { kernel } = setup();
    expect(code(await call(kernel, { sessionId: 'p' }, 'sessions_spawn', { task: 'x', runtime: 'acp' }))).toBe(
      SessionsErrors.SESSIONS_RUNTIME_UNAVAILABLE,
    );
    expect(
      data(await call(kernel, { sessionId: 'p' }, 'sessions_spawn', { task: 'x', runtime: 'subagent' })),
    ).toMatchObject({ status: 'accepted', runtime: 'subagent' });
  });

  it('mode "session" needs thread: true', async () => {
    const { kernel } = setup();
    expect(code(await call(kernel, { sessionId: 'p' }, 'sessions_spawn', { task: 'x', mode: 'session' }))).toBe(
      SessionsErrors.SESSIONS_SPAWN_INVALID,
    );
  });

  it('thread: true defaults mode to "session"', async () => {
    const { kernel, host } = setup();
    const spawned = data(await call(kernel, { sessionId: 'p' }, 'sessions_spawn', { task: 'x', thread: true }));
    expect(spawned.mode).toBe('session');
    expect(await host.store.get(spawned.sessionId)).toMatchObject({ mode: 'session', thread: true });
  });

  it('label, agentId, model, thinking and cwd are recorded on the child session', async () => {
    const { kernel, host } = setup({
      agents: [{ id: 'main', default: true, subagents: { allowAgents: ['coder'] } }, { id: 'coder' }],
    });
    const spawned = data(
      await call(kernel, { sessionId: 'p', agentId: 'main' }, 'sessions_spawn', {
        task: 'x',
        label: 'kid',
        agentId: 'coder',
        model: 'mock-model',
        thinking: 'high',
        cwd: '/work/repo',
      }),
    );
    expect(await host.store.get(spawned.sessionId)).toMatchObject({
      label: 'kid',
      agentId: 'coder',
      model: 'mock-model',
      thinking: 'high',
      cwd: '/work/repo',
      parentId: 'p',
    });
    expect(
      code(
        await call(kernel, { sessionId: 'p', agentId: 'main' }, 'sessions_spawn', { task: 'x', thinking: 'extreme' }),
      ),
    ).toBe('TOOL_ARGUMENTS_INVALID');
  });

  it('runTimeoutSeconds defaults from agents.defaults.subagents.runTimeoutSeconds, else none', async () => {
    expect(
      data(
        await call(setup({ limits: { runTimeoutSeconds: 90 } }).kernel, { sessionId: 'p' }, 'sessions_spawn', {
          task: 'x',
        }),
      ).runTimeoutSeconds,
    ).toBe(90);
    expect(
      data(
        await call(setup({ limits: { runTimeoutSeconds: 90 } }).kernel, { sessionId: 'p' }, 'sessions_spawn', {
          task: 'x',
          runTimeoutSeconds: 5,
        }),
      ).runTimeoutSeconds,
    ).toBe(5);
    expect(
      data(await call(setup().kernel, { sessionId: 'p' }, 'sessions_spawn', { task: 'x' })).runTimeoutSeconds,
    ).toBeUndefined();
  });

  it('a child past its runTimeoutSeconds is announced with Status: timeout', async () => {
    const host = createSessionHost();
    const kernel = createKernel({ plugins: [sessionsPlugin({ host, limits: { runTimeoutSeconds: 1 } })] });
    bed.track(kernel);
    // A turn that only ends when its signal aborts (the run timeout), as a slow provider call would.
    host.bind(
      ({ signal }) =>
        new Promise((_resolve, reject) =>
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true }),
        ),
    );
    data(await call(kernel, { sessionId: 'p' }, 'sessions_spawn', { task: 'slow', label: 'slow' }));
    const announce = await eventually(announceOf(host, 'p'), 'the timeout announce');
    expect(announce.content).toMatch(/Status: timeout/);
  });

  it('sandbox "require" is refused from a run that is not sandboxed, and allowed from a sandboxed one', async () => {
    const { kernel } = setup();
    expect(code(await call(kernel, { sessionId: 'p' }, 'sessions_spawn', { task: 'x', sandbox: 'require' }))).toBe(
      SessionsErrors.SESSIONS_SANDBOX_REQUIRED,
    );
    expect(
      data(await call(kernel, { sessionId: 'p', sandboxed: true }, 'sessions_spawn', { task: 'x', sandbox: 'require' }))
        .status,
    ).toBe('accepted');
  });

  it("the finished sub-agent's announce reply is posted back to the requester (Status, Result, compact stats)", async () => {
    const { kernel, host } = setup();
    const spawned = data(
      await call(kernel, { sessionId: 'requester' }, 'sessions_spawn', { task: 'say hi', label: 'greeter' }),
    );
    const announce = await eventually(announceOf(host, 'requester'), 'the announce');
    expect(announce).toMatchObject({ role: 'user', announce: { from: spawned.childSessionKey, status: 'ok' } });
    expect(announce.content).toContain('[sub-agent greeter finished]');
    expect(announce.content).toContain('Status: ok');
    expect(announce.content).toContain(`Result: ${NO_SCRIPT}`);
    expect(announce.content).toMatch(/Stats: runtime [\d.]+s · tokens \d+ in \/ \d+ out · turns 1 · agent:main:spawn-/);
    // sessions_history shows it to the requester.
    const history = data(await call(kernel, { sessionId: 'requester' }, 'sessions_history', {}));
    expect(
      history.messages.some((m: { content: string }) => m.content.startsWith('[sub-agent greeter finished]')),
    ).toBe(true);
  });

  it('Result falls back to the latest tool result when the reply has no text', async () => {
    const host = createSessionHost();
    const kernel = createKernel({ plugins: [sessionsPlugin({ host })] });
    bed.track(kernel);
    // A turn that ends on a tool result and no closing text, as a model can.
    host.bind(async ({ sessionId }) => {
      await host.store.append(sessionId, {
        role: 'tool',
        content: '{"rows":42}',
        at: Date.now(),
        tool: { name: 'query', status: 'ok' },
      });
      return { content: null, finishReason: 'stop', model: 'mock-model' };
    });
    data(await call(kernel, { sessionId: 'requester' }, 'sessions_spawn', { task: 'count rows' }));
    const announce = await eventually(announceOf(host, 'requester'), 'the announce');
    expect(announce.content).toContain('Result: {"rows":42}');
  });

  it('cleanup "delete" archives the child after its announce: sessions_list leaves it out', async () => {
    const { kernel, host } = setup();
    const spawned = data(
      await call(kernel, { sessionId: 'requester' }, 'sessions_spawn', { task: 'x', cleanup: 'delete' }),
    );
    await eventually(announceOf(host, 'requester'), 'the announce');
    await eventually(
      async () => ((await host.store.get(spawned.sessionId))?.archived ? true : undefined),
      'the archive',
    );
    const listed = data(await call(kernel, { sessionId: 'requester' }, 'sessions_list', {}));
    expect(listed.sessions.map((s: { sessionKey: string }) => s.sessionKey)).not.toContain(spawned.childSessionKey);
  });
});

describe('session_status and agents_list as documented', () => {
  it('session_status model sets the session model override; "default" clears it', async () => {
    const { kernel, host } = setup();
    await host.store.upsert('me', { model: 'gpt-a' });
    expect(data(await call(kernel, { sessionId: 'me' }, 'session_status', { model: 'gpt-b' }))).toMatchObject({
      model: 'gpt-b',
      modelOverride: 'gpt-b',
    });
    expect((await host.store.get('me'))?.model).toBe('gpt-b');
    const cleared = data(await call(kernel, { sessionId: 'me' }, 'session_status', { model: 'default' }));
    expect(cleared.modelOverride).toBeNull();
    expect(cleared.model).toBeUndefined();
    expect((await host.store.get('me'))?.model).toBeUndefined();
  });

  it('agents_list shows allowAny: true for allowAgents ["*"]', async () => {
    const { kernel } = setup({
      agents: [
        { id: 'main', default: true, subagents: { allowAgents: ['*'] } },
        { id: 'a' },
        { id: 'b', subagents: { allowAgents: ['a'] } },
      ],
    });
    const any = data(await call(kernel, { sessionId: 'p', agentId: 'main' }, 'agents_list'));
    expect(any).toMatchObject({ requester: 'main', allowAny: true });
    expect(any.agents.map((a: { id: string }) => a.id)).toEqual(['main', 'a', 'b']);
    expect(data(await call(kernel, { sessionId: 'q', agentId: 'b' }, 'agents_list')).allowAny).toBe(false);
  });
});

describe('the sandbox clamp of tools.sessions.visibility', () => {
  async function listed(options: { sandboxVisibility?: unknown }, sandboxed: boolean): Promise<string[]> {
    const host = createSessionHost();
    const kernel = createKernel({ plugins: [sessionsPlugin({ host, visibility: 'all', ...options })] });
    bed.track(kernel);
    await host.store.upsert('me', {});
    await host.store.upsert('mine', { kind: 'spawn', parentId: 'me' });
    await host.store.upsert('stranger', {});
    const out = data(await call(kernel, { sessionId: 'me', sandboxed }, 'sessions_list', {}));
    return out.sessions.map((s: { sessionId: string }) => s.sessionId).sort();
  }

  it('a sandboxed run with visibility "all" sees only its own tree (sessionToolsVisibility "spawned", the default)', async () => {
    expect(await listed({}, false)).toEqual(['me', 'mine', 'stranger']);
    expect(await listed({}, true)).toEqual(['me', 'mine']);
  });

  it('agents.defaults.sandbox.sessionToolsVisibility "all" lifts the clamp; another value is a config error', async () => {
    expect(await listed({ sandboxVisibility: 'all' }, true)).toEqual(['me', 'mine', 'stranger']);
    expect(() => sessionsPlugin({ host: createSessionHost(), sandboxVisibility: 'everyone' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });
});

describe('sessions_send agent-to-agent as documented', () => {
  function pair(maxPingPongTurns: number) {
    const host = createSessionHost();
    const kernel = bed.kernel(host, [sessionsPlugin({ host, maxPingPongTurns, visibility: 'all' })]);
    return { kernel, host };
  }
  const pingPongLines = async (host: SessionHost, sessionId: string) =>
    (await host.store.transcript(sessionId)).filter(
      (entry) => entry.role === 'user' && entry.content?.startsWith('[agent-to-agent reply from'),
    ).length;
  const settled = async (host: SessionHost) => {
    await eventually(
      async () => ((await host.store.list()).every((s) => s.status !== 'running') ? true : undefined),
      'the exchange to settle',
    );
  };

  it('reply-back ping-pong runs up to session.agentToAgent.maxPingPongTurns, then the target announces to the requester', async () => {
    const { kernel, host } = pair(3);
    await host.store.upsert('target', {});
    const sent = data(
      await call(kernel, { sessionId: 'requester' }, 'sessions_send', {
        sessionId: 'target',
        message: 'hi',
        timeoutSeconds: 60,
      }),
    );
    expect(sent).toMatchObject({ status: 'ok', reply: NO_SCRIPT });
    const announce = await eventually(
      async () => (await host.store.transcript('requester')).find((e) => e.announce),
      'the announce',
    );
    await settled(host);
    // Three turns in all: requester, target, requester (each a reply to the other's last message).
    expect(await pingPongLines(host, 'requester')).toBe(2);
    expect(await pingPongLines(host, 'target')).toBe(1);
    expect(announce).toMatchObject({ role: 'user', announce: { from: 'agent:main:target', status: 'ok' } });
    expect(announce.content).toBe(`[announce from agent:main:target]\n${NO_SCRIPT}`);
  });

  it('maxPingPongTurns 0: no reply-back, only the announce', async () => {
    const { kernel, host } = pair(0);
    await host.store.upsert('target', {});
    data(
      await call(kernel, { sessionId: 'requester' }, 'sessions_send', {
        sessionId: 'target',
        message: 'hi',
        timeoutSeconds: 60,
      }),
    );
    await eventually(async () => (await host.store.transcript('requester')).find((e) => e.announce), 'the announce');
    await settled(host);
    expect(await pingPongLines(host, 'requester')).toBe(0);
  });

  it('REPLY_SKIP ends the ping-pong', async () => {
    const { kernel, host } = pair(5);
    await host.store.upsert('target', {});
    // The target answers every message with exactly REPLY_SKIP.
    const sent = data(
      await call(kernel, { sessionId: 'requester' }, 'sessions_send', {
        sessionId: 'target',
        message: 'tool search qa always say REPLY_SKIP',
        timeoutSeconds: 60,
      }),
    );
    expect(sent.reply).toBe('REPLY_SKIP');
    // Its announce is REPLY_SKIP too (not ANNOUNCE_SKIP), so it is posted: the exchange is over when it arrives.
    await eventually(async () => (await host.store.transcript('requester')).find((e) => e.announce), 'the announce');
    await settled(host);
    expect(await pingPongLines(host, 'requester')).toBe(0);
  });

  it('ANNOUNCE_SKIP keeps the target silent', async () => {
    const { kernel, host } = pair(0);
    await host.store.upsert('target', {});
    data(
      await call(kernel, { sessionId: 'requester' }, 'sessions_send', {
        sessionId: 'target',
        message: 'tool search qa always say ANNOUNCE_SKIP',
        timeoutSeconds: 60,
      }),
    );
    // The announce step ran (a second target turn) and answered ANNOUNCE_SKIP: nothing is posted.
    await eventually(
      async () =>
        (await host.store.get('target'))?.turns === 2 && (await host.store.get('target'))?.status === 'idle'
          ? true
          : undefined,
      'the announce step',
    );
    expect((await host.store.transcript('requester')).filter((e) => e.announce)).toEqual([]);
  });

  it('maxPingPongTurns outside 0–5 is a config error', () => {
    expect(() => sessionsPlugin({ host: createSessionHost(), maxPingPongTurns: 6 })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', path: '/session/agentToAgent/maxPingPongTurns' }),
    );
  });
});
