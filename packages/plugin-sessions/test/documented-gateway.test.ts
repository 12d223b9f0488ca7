/**
 * Issue 46: the session tools as OpenClaw's Tools document has them, run as a user would: a real gateway (its HTTP
 * server and turn loop) over the sessions plugin, driven by the official OpenAI client, the scripted mock provider
 * behind it calling the tools. `main` is the canonical direct-chat key; `sessions_spawn` takes `streamTo` and
 * `attachAs`.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { openaiUpstream, sessionTurnRunner, startGatewayServer, type GatewayServer } from '@tool-search/gateway';
import { createSessionHost, type SessionHost } from '@tool-search/sessions';
import { sessionsPlugin, SessionsErrors } from '@tool-search/plugin-sessions';
import { useSessionsTestbed } from './fixtures.js';

const bed = useSessionsTestbed();
const servers: GatewayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface Gateway {
  readonly host: SessionHost;
  readonly workspace: string;
  /** Runs one chat completion whose model calls `steps` in order; the last tool result, as the model read it. */
  steps(
    steps: readonly { tool: string; args: Record<string, unknown> }[],
    headers?: Record<string, string>,
  ): Promise<string>;
}

async function gateway(visibility: 'tree' | 'all' = 'tree'): Promise<Gateway> {
  const host = createSessionHost();
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'sessions-gw-')));
  const kernel = bed.track(
    createKernel({ plugins: [sessionsPlugin({ host, visibility, workspace, attachments: { enabled: true } })] }),
  );
  const upstream = openaiUpstream(new OpenAI({ baseURL: bed.mock.url, apiKey: 'mock', maxRetries: 0 }), 'mock-model');
  host.bind(sessionTurnRunner({ kernel, upstream, mode: 'direct', countTokens: false }));
  const server = await startGatewayServer({ kernel, upstream, mode: 'direct', countTokens: false, log: () => {} });
  servers.push(server);
  return {
    host,
    workspace,
    async steps(steps, headers = {}) {
      const client = new OpenAI({ baseURL: server.url, apiKey: 'none', maxRetries: 0, defaultHeaders: headers });
      const completion = await client.chat.completions.create({
        model: 'mock-model',
        messages: [{ role: 'user', content: `tool search qa steps ${JSON.stringify(steps)}` }],
      });
      return (completion.choices[0]?.message.content ?? '').replace(/^Steps done\. Last result: /, '');
    },
  };
}

/** Polls the store: a spawned child's turn and announce finish after the spawning request answered. */
async function eventually<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const until = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('main is the canonical direct-chat session key', () => {
  it('a request without x-session-id runs in the main session, and sessionKey "main" finds it', async () => {
    const gw = await gateway();
    const own = JSON.parse(await gw.steps([{ tool: 'session_status', args: {} }]));
    expect(own).toMatchObject({ sessionKey: 'agent:main:main', sessionId: 'main', kind: 'main' });
    const history = JSON.parse(await gw.steps([{ tool: 'sessions_history', args: { sessionKey: 'main' } }]));
    expect(history.sessionKey).toBe('agent:main:main');
    // Both requests went to the one session: the first request's script is in its transcript.
    expect(history.messages.some((m: { content: string }) => m.content.includes('"session_status"'))).toBe(true);
    const byKey = JSON.parse(await gw.steps([{ tool: 'session_status', args: { sessionKey: 'agent:main:main' } }]));
    expect(byKey.sessionId).toBe('main');
  });

  it('a client that sends x-session-id keeps its own session; "main" still names the main one', async () => {
    const gw = await gateway('all');
    await gw.steps([{ tool: 'session_status', args: {} }]);
    const own = JSON.parse(await gw.steps([{ tool: 'session_status', args: {} }], { 'x-session-id': 'mine' }));
    expect(own.sessionKey).toBe('agent:main:mine');
    const main = JSON.parse(
      await gw.steps([{ tool: 'session_status', args: { sessionKey: 'main' } }], { 'x-session-id': 'mine' }),
    );
    expect(main.sessionKey).toBe('agent:main:main');
  });

  it('"main" with no main session yet is SESSION_UNKNOWN', async () => {
    const gw = await gateway('all');
    const text = await gw.steps([{ tool: 'sessions_history', args: { sessionKey: 'main' } }], { 'x-session-id': 's' });
    expect(text).toContain(SessionsErrors.SESSION_UNKNOWN);
  });

  it("an agent's direct chat (x-agent-id) is its own main session, agent:<id>:main", async () => {
    const gw = await gateway();
    const own = JSON.parse(await gw.steps([{ tool: 'session_status', args: {} }], { 'x-agent-id': 'coder' }));
    expect(own).toMatchObject({ sessionKey: 'agent:coder:main', agentId: 'coder' });
    const found = JSON.parse(
      await gw.steps([{ tool: 'session_status', args: { sessionKey: 'main' } }], { 'x-agent-id': 'coder' }),
    );
    expect(found.sessionKey).toBe('agent:coder:main');
  });

  it('a sub-agent spawned from the main session finds it as "main"', async () => {
    const gw = await gateway('all');
    const task = `tool search qa steps ${JSON.stringify([{ tool: 'session_status', args: { sessionKey: 'main' } }])}`;
    const spawned = JSON.parse(await gw.steps([{ tool: 'sessions_spawn', args: { task } }]));
    expect(spawned.status).toBe('accepted');
    const announce = await eventually(
      async () => (await gw.host.store.transcript('main')).find((entry) => entry.announce),
      'the announce',
    );
    expect(announce.content).toContain('Status: ok');
    expect(announce.content).toContain('"sessionKey": "agent:main:main"');
  });
});

describe('sessions_spawn streamTo and attachAs', () => {
  it('streamTo "parent" is taken and refused clearly: OpenClaw streams only ACP runs, and there is no ACP runtime here', async () => {
    const gw = await gateway();
    const text = await gw.steps([{ tool: 'sessions_spawn', args: { task: 'x', streamTo: 'parent' } }]);
    expect(text).toContain(SessionsErrors.SESSIONS_STREAM_UNSUPPORTED);
    expect(text).not.toContain('TOOL_ARGUMENTS_INVALID');
    expect((await gw.host.store.list()).filter((s) => s.kind === 'spawn')).toEqual([]);
  });

  it('attachAs.mountPath is taken as the hint it is: on the receipt and told to the child beside the real folder', async () => {
    const gw = await gateway();
    const spawned = JSON.parse(
      await gw.steps([
        {
          tool: 'sessions_spawn',
          args: {
            task: 'read the notes',
            attachments: [{ name: 'notes.txt', content: 'hello' }],
            attachAs: { mountPath: 'handoff/in' },
          },
        },
      ]),
    );
    expect(spawned).toMatchObject({ status: 'accepted', attachments: { count: 1, mountPath: 'handoff/in' } });
    expect(readFileSync(join(gw.workspace, spawned.attachments.relDir, 'notes.txt'), 'utf8')).toBe('hello');
    expect(existsSync(join(gw.workspace, 'handoff'))).toBe(false);
    const first = await eventually(
      async () => (await gw.host.store.transcript(spawned.sessionId)).find((entry) => entry.role === 'user'),
      "the child's task",
    );
    expect(first.content).toContain(`in ${spawned.attachments.relDir}: notes.txt`);
    expect(first.content).toContain('attachAs.mountPath "handoff/in"');
  });

  it('an attachAs.mountPath OpenClaw would refuse is refused, and nothing is written', async () => {
    const gw = await gateway();
    const text = await gw.steps([
      {
        tool: 'sessions_spawn',
        args: { task: 'x', attachments: [{ name: 'a.txt', content: 'a' }], attachAs: { mountPath: 'a b;rm -rf' } },
      },
    ]);
    expect(text).toContain(SessionsErrors.SESSIONS_ATTACHMENT_REFUSED);
    expect(existsSync(join(gw.workspace, '.openclaw'))).toBe(false);
  });
});
