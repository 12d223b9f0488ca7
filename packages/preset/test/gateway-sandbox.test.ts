/**
 * Issue #46 item 1: an agent the config marks sandboxed (`agents.list[].sandbox.mode`) runs sandboxed through the
 * gateway, as `--sandboxed` runs do in the CLI: `tools.sandbox.tools` narrows what it is offered and may call, the
 * session tools' clamp (`sessionToolsVisibility: "spawned"`) holds it to its own tree, `sessions_spawn` with
 * `sandbox: "require"` is allowed, and the child stays sandboxed when an HTTP client drives it later, even as an agent
 * the config leaves unsandboxed; `elevated` takes its exec out of the sandbox; `non-main` spares the agent's main
 * session only. An unsandboxed agent on the same gateway is unaffected. Real gateway (`runGateway`, as
 * `tool-search gateway` calls it), a real mock provider, the official `openai` client; `serveMcp` (the agent served, or
 * picked by an API key) with the official MCP SDK client.
 */
import { chownSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ToolSearchConfig } from '@tool-search/config';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { probeBubblewrap } from '@tool-search/plugin-exec';
import { noteSkipped } from '@tool-search/testing';
import { runGateway, serveMcp, type ListeningGateway } from '@tool-search/preset';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let mock: Awaited<ReturnType<typeof startMockOpenAI>>;
let gateway: ListeningGateway;
const stop = new AbortController();
let done: Promise<void>;

// elevated is the way out of the exec sandbox: its case needs bubblewrap (the exec tool is not listed without it).
const SANDBOX = probeBubblewrap('bwrap').ok;
if (!SANDBOX) noteSkipped('the elevated case of the gateway sandbox test', 'bubblewrap', 'bwrap does not run here');
const itSandboxed = SANDBOX ? it : it.skip;

/** A workspace the exec sandbox can use: a root gateway runs commands as uid 65534. */
function workspace(): string {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'gateway-sandbox-')));
  if (process.getuid?.() === 0) chownSync(ws, 65534, 65534);
  return ws;
}
const configOf = (provider: object): ToolSearchConfig =>
  ({
    provider,
    plugins: { core: { workspace: workspace() } },
    tools: {
      toolSearch: false,
      // `cron` is an operator's opt-in for a sandbox (its default deny holds group:automation).
      sandbox: { tools: { allow: ['group:sessions', 'group:runtime', 'read', 'cron'], deny: ['group:ui'] } },
      sessions: { visibility: 'all' },
      exec: { security: 'full', ask: 'off' },
      elevated: { enabled: true },
    },
    agents: {
      list: [
        { id: 'main', default: true },
        { id: 'jailed', sandbox: { mode: 'all' }, subagents: { allowAgents: ['helper'] } },
        { id: 'helper' },
        { id: 'worker', sandbox: { mode: 'non-main' } },
      ],
    },
  }) as ToolSearchConfig;

beforeAll(async () => {
  mock = await startMockOpenAI();
  const listening: ListeningGateway[] = [];
  let failed: unknown;
  done = runGateway({
    load: async () => ({ config: configOf({ baseURL: mock.url, apiKey: 'mock', model: 'mock-model' }) }),
    cwd: workspace(),
    env: { ...process.env, TOOL_SEARCH_STATE_DIR: workspace() }, // the cron folder
    port: 0,
    signal: stop.signal,
    onListening: (g) => void listening.push(g),
  });
  done.catch((error: unknown) => (failed = error));
  await eventually(() => listening.length > 0 || failed !== undefined, 'the gateway to listen');
  if (failed) throw failed;
  gateway = listening[0]!;
}, 120_000);

afterAll(async () => {
  stop.abort();
  await done;
  await mock?.close();
});

/** Polls a condition (events, not wall-clock budgets: the deadline only ends a hung test). */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let nonce = 0;
/** One chat turn as `agent` in `session` running the scripted `steps`: the reply, and the tools the model was offered. */
async function turn(agent: string, session: string, steps: readonly object[]) {
  const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused-on-loopback', maxRetries: 0 });
  const message = `turn ${++nonce}: tool search qa steps ${JSON.stringify(steps)}`;
  const completion = await client.chat.completions.create(
    { model: 'mock-model', messages: [{ role: 'user', content: message }] },
    { headers: { 'x-agent-id': agent, 'x-session-id': session } },
  );
  const offered = toolsOf(sentWith(message));
  const content = completion.choices[0]?.message.content ?? '';
  const sandboxed = (completion as unknown as { tool_search: { sandboxed?: boolean } }).tool_search.sandboxed === true;
  return { content, offered, last: lastResult(content), sandboxed };
}

/** The provider request whose conversation holds `message` as a user message (the first one). */
function sentWith(message: string) {
  return mock.requests.find((request) =>
    ((request.body as { messages?: { role: string; content: unknown }[] })?.messages ?? []).some(
      (m) => m.role === 'user' && m.content === message,
    ),
  );
}

function toolsOf(sent: ReturnType<typeof sentWith>): string[] {
  return ((sent?.body as { tools?: { function: { name: string } }[] })?.tools ?? []).map((tool) => tool.function.name);
}

function lastResult(content: string): any {
  try {
    return JSON.parse(content.replace(/^Steps done\. Last result: /, ''));
  } catch {
    return undefined;
  }
}

describe('an agent the config sandboxes runs sandboxed through the gateway', () => {
  it('tools.sandbox.tools narrows what it is offered and may call; the unsandboxed agent keeps its tools', async () => {
    const free = await turn('main', 'free-1', []);
    expect(free.offered).toEqual(expect.arrayContaining(['read', 'write', 'sessions_list']));

    const jailed = await turn('jailed', 'jailed-1', [{ tool: 'write', args: { path: 'escaped.txt', content: 'x' } }]);
    expect(jailed.offered).toEqual(expect.arrayContaining(['read', 'sessions_list']));
    expect(jailed.offered).not.toContain('write');
    expect(jailed.content).toBe('The tool write is not offered.');
    expect([jailed.sandboxed, free.sandboxed]).toEqual([true, false]);

    // Leaving x-agent-id out is the default agent (main here): unsandboxed.
    const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 });
    const before = mock.requests.length;
    await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: 'hello' }] });
    const names = ((mock.requests[before]?.body as any)?.tools ?? []).map((t: any) => t.function.name);
    expect(names).toContain('write');
  }, 60_000);

  it("non-main: the agent's main session (no x-session-id) is not sandboxed, its other sessions are", async () => {
    const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 });
    const completion = await client.chat.completions.create(
      { model: 'mock-model', messages: [{ role: 'user', content: 'hello from the main session' }] },
      { headers: { 'x-agent-id': 'worker' } },
    );
    expect((completion as any).tool_search).toMatchObject({ session_id: 'main:worker' });
    expect((completion as any).tool_search.sandboxed).toBeUndefined();
    const other = await turn('worker', 'worker-1', []);
    expect(other.sandboxed).toBe(true);
    expect(other.offered).not.toContain('write');
  }, 60_000);

  it('the session tools clamp it to the sessions it started, whatever tools.sessions.visibility says', async () => {
    await turn('main', 'free-2', []);
    const free = await turn('main', 'free-3', [{ tool: 'sessions_list', args: {} }]);
    const seenByFree = (free.last?.sessions ?? []).map((s: { sessionKey: string }) => s.sessionKey);
    expect(seenByFree).toEqual(expect.arrayContaining(['agent:main:free-2', 'agent:main:free-3']));

    const jailed = await turn('jailed', 'jailed-2', [{ tool: 'sessions_list', args: {} }]);
    const seenByJailed = (jailed.last?.sessions ?? []).map((s: { sessionKey: string }) => s.sessionKey);
    expect(seenByJailed).toEqual(['agent:jailed:jailed-2']);
    // …and a session outside its tree is refused by name.
    const peek = await turn('jailed', 'jailed-2', [
      { tool: 'sessions_history', args: { sessionKey: 'agent:main:free-2' } },
    ]);
    expect(peek.content).toContain('SESSION_NOT_VISIBLE');
  }, 60_000);

  it('sessions_spawn with sandbox "require" runs, and the child stays sandboxed when a client drives it as another agent', async () => {
    const refused = await turn('main', 'free-4', [
      { tool: 'sessions_spawn', args: { task: 'hi', sandbox: 'require' } },
    ]);
    expect(refused.content).toContain('SESSIONS_SANDBOX_REQUIRED');

    const spawned = await turn('jailed', 'jailed-3', [
      { tool: 'sessions_spawn', args: { task: 'say hi', agentId: 'helper', sandbox: 'require' } },
    ]);
    expect(spawned.last).toMatchObject({ status: 'accepted', agentId: 'helper' });
    const child: string = spawned.last.sessionId;
    const store = gateway.front.sessionHost!.store;
    // The child's own turn (the task) ran through the session runner.
    await eventually(async () => ((await store.get(child))?.turns ?? 0) >= 1, 'the child turn');

    // helper is unsandboxed in a session of its own, but not in the child the sandboxed agent spawned.
    const helper = await turn('helper', 'helper-1', []);
    expect(helper.offered).toContain('write');
    const driven = await turn('helper', child, [{ tool: 'write', args: { path: 'escaped.txt', content: 'x' } }]);
    expect(driven.offered).toContain('read');
    expect(driven.offered).not.toContain('write');
    expect(driven.content).toBe('The tool write is not offered.');
  }, 60_000);
});

describe('a session once sandboxed stays sandboxed, whichever agent drives it next', () => {
  it('an HTTP client continuing it as the unsandboxed agent', async () => {
    await turn('jailed', 'shared-1', []);
    const next = await turn('main', 'shared-1', []);
    expect(next.sandboxed).toBe(true);
    expect(next.offered).not.toContain('write');
  }, 60_000);

  it("a cron job it made for an unsandboxed agent (allowAgents), run in its own session (sessionTarget: 'main')", async () => {
    const payload = `cron payload ${++nonce}: tool search qa steps ${JSON.stringify([{ tool: 'write', args: { path: 'x', content: 'x' } }])}`;
    const job = { schedule: { kind: 'every', everyMs: 3_600_000 }, payload: { kind: 'agentTurn', message: payload } };
    const added = await turn('jailed', 'jailed-5', [
      { tool: 'cron', args: { action: 'add', job: { ...job, sessionTarget: 'main', agentId: 'helper' } } },
    ]);
    const jobId: string = added.last.job.jobId;
    await turn('jailed', 'jailed-5', [{ tool: 'cron', args: { action: 'run', jobId } }]);
    const store = gateway.front.sessionHost!.store;
    await eventually(async () => (await store.get('jailed-5'))?.agentId === 'helper', 'the cron turn as helper');
    await eventually(() => sentWith(payload) !== undefined, 'the cron turn to reach the model');
    const offered = toolsOf(sentWith(payload));
    expect(offered).toContain('read');
    expect(offered).not.toContain('write');
  }, 60_000);
});

describe('elevated through the gateway', () => {
  itSandboxed(
    "takes the sandboxed agent's exec to the gateway host; for the unsandboxed agent it stays a no-op",
    async () => {
      // Inside the sandbox (a new PID namespace) process 1 is bwrap itself; on the gateway host it never is.
      const where = async (agent: string, session: string, elevated: boolean) => {
        const args = { command: 'cat /proc/1/comm', ...(elevated ? { elevated } : {}) };
        const { content } = await turn(agent, session, [{ tool: 'exec', args }]);
        expect(content).toContain('[exit code 0]');
        return content.replace(/^Steps done\. Last result: /, '').split('\n')[0] === 'bwrap' ? 'sandbox' : 'host';
      };
      expect(await where('jailed', 'jailed-4', false)).toBe('sandbox');
      expect(await where('jailed', 'jailed-4', true)).toBe('host');
      expect(await where('main', 'free-5', true)).toBe('sandbox');
    },
    60_000,
  );
});

describe('serve mcp: the agent the config sandboxes is sandboxed without --sandboxed', () => {
  /** Whether `tool_describe` shows `write` to `agentId`: the served party, or (`keyed`) the agent an API key picks. */
  async function describeWrite(agentId: string, keyed = false): Promise<boolean> {
    const lines: string[] = [];
    const controller = new AbortController();
    const config = configOf({ baseURL: mock.url, apiKey: 'mock', model: 'mock-model' });
    const served = serveMcp({
      config: keyed ? { ...config, auth: { keys: [{ env: 'SANDBOX_TEST_KEY', agents: ['*'] }] } } : config,
      ...(keyed
        ? { env: { SANDBOX_TEST_KEY: 'secret-token-of-the-test' } }
        : { request: { agentId }, token: 'secret-token' }),
      mode: 'tools',
      http: 0,
      signal: controller.signal,
      log: (line) => void lines.push(line),
    });
    let stopped = false;
    void served.finally(() => (stopped = true));
    const serving = () => lines.find((line) => line.includes('(Streamable HTTP)'));
    await eventually(() => serving() !== undefined || stopped, 'the MCP server to listen');
    const url = /MCP server on (\S+)/.exec(serving()!)![1]!;
    const client = new Client({ name: 'gateway-sandbox-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: {
          headers: {
            authorization: `Bearer ${keyed ? 'secret-token-of-the-test' : 'secret-token'}`,
            ...(keyed ? { 'x-agent-id': agentId } : {}),
          },
        },
      }),
    );
    try {
      const result = await client.callTool({ name: 'tool_describe', arguments: { id: 'core:core:write' } });
      return result.isError !== true;
    } finally {
      await client.close();
      controller.abort();
      await served;
    }
  }

  it('describes write to the unsandboxed agent only', async () => {
    expect(await describeWrite('main')).toBe(true);
    expect(await describeWrite('jailed')).toBe(false);
  }, 120_000);

  it('the same when an API key picks the agent (x-agent-id), not the served party', async () => {
    expect(await describeWrite('main', true)).toBe(true);
    expect(await describeWrite('jailed', true)).toBe(false);
  }, 120_000);
});
