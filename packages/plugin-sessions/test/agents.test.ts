/**
 * Issue 26: a sub-agent (sessions_spawn) and a session reached by sessions_send run as their own agent, under that
 * agent's policy: the model in their turn is never offered a tool their agent denies, whatever the caller may use,
 * and an agent cannot spawn one it is not allowed to.
 */
import { describe, expect, it } from 'vitest';
import { type Kernel, type KernelPlugin, type ToolCallOutcome } from '@tool-search/kernel';
import { createSessionHost, type SessionHost } from '@tool-search/sessions';
import { policyPlugin } from '@tool-search/policy';
import { sessionsPlugin, type AgentEntry } from '@tool-search/plugin-sessions';
import { SessionsErrors } from '../src/errors.js';
import { useSessionsTestbed } from './fixtures.js';

const AGENTS = [
  { id: 'main', default: true, subagents: { allowAgents: ['restricted'] } },
  { id: 'restricted', tools: { deny: ['exec'] } },
] satisfies (AgentEntry & { tools?: object })[];
const execSource: KernelPlugin = {
  name: 'exec-source',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) =>
      sink.add({
        name: 'exec',
        source: 'core',
        owner: 'core',
        description: 'Run a shell command',
        inputSchema: { type: 'object' },
        execute: () => ({ content: [] }),
      }),
    ),
};

const bed = useSessionsTestbed();

function setup(visibility = 'all'): { kernel: Kernel; host: SessionHost } {
  const host = createSessionHost();
  const kernel = bed.kernel(host, [
    execSource,
    policyPlugin({ agents: { list: AGENTS } }),
    sessionsPlugin({ host, visibility, agents: AGENTS, limits: { maxSpawnDepth: 2, maxChildren: 5 } }),
  ]);
  return { kernel, host };
}

async function call(
  kernel: Kernel,
  agentId: string,
  sessionId: string,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolCallOutcome> {
  const run = await kernel.createRun({ agentId, sessionId });
  try {
    return await run.call(name, args);
  } finally {
    await run.close();
  }
}

const data = (outcome: ToolCallOutcome) => {
  if (outcome.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(outcome)}`);
  return outcome.result.structuredContent as Record<string, any>;
};

/** The tool names offered to the model in the turn that carried `message` (turns run in the background: poll). */
async function toolsOffered(message: string): Promise<string[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const request = bed.mock.requests.find((r) =>
      JSON.stringify((r.body as { messages?: unknown })?.messages ?? '').includes(message),
    );
    if (request)
      return ((request.body as { tools?: { function: { name: string } }[] }).tools ?? [])
        .map((t) => t.function.name)
        .sort();
    if (Date.now() > deadline) throw new Error(`no model request carried "${message}"`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("sub-agents and sent-to sessions run under their own agent's policy", () => {
  it('a sub-agent spawned by a wider agent is never offered a tool its own agent denies', async () => {
    const { kernel } = setup();
    const spawned = data(
      await call(kernel, 'main', 'main-1', 'sessions_spawn', { task: 'child task marker-1', agentId: 'restricted' }),
    );
    expect(spawned.agentId).toBe('restricted');
    expect(await toolsOffered('child task marker-1')).not.toContain('exec');
    // Positive control: the same spawn as main itself is offered exec.
    data(await call(kernel, 'main', 'main-1', 'sessions_spawn', { task: 'child task marker-2' }));
    expect(await toolsOffered('child task marker-2')).toContain('exec');
  }, 90_000);

  it('a restricted agent cannot spawn the wider agent, in any spelling', async () => {
    const { kernel } = setup();
    for (const agentId of ['main', 'MAIN', 'main ']) {
      const outcome = await call(kernel, 'restricted', 'r-1', 'sessions_spawn', { task: 'escalate' });
      expect(outcome.status).toBe('ok'); // spawning itself is allowed…
      const refused = await call(kernel, 'restricted', 'r-1', 'sessions_spawn', { task: 'escalate', agentId });
      expect(refused.status === 'error' ? refused.error.code : refused.status).toMatch(
        /^(SUBAGENT_NOT_ALLOWED|AGENT_UNKNOWN)$/,
      );
    }
    expect(
      bed.mock.requests
        .filter((r) => r.raw.includes('escalate'))
        .every((r) => !JSON.stringify((r.body as { tools?: unknown }).tools ?? []).includes('"exec"')),
    ).toBe(true);
  }, 90_000);

  it('sessions_send from a wider agent into a restricted session runs as the restricted agent', async () => {
    const { kernel, host } = setup();
    await host.store.upsert('restricted-home', { agentId: 'restricted', kind: 'main' });
    const sent = data(
      await call(kernel, 'main', 'main-2', 'sessions_send', {
        sessionId: 'restricted-home',
        message: 'sent marker-3',
        timeoutSeconds: 60,
      }),
    );
    expect(sent.status).toBe('ok');
    expect(await toolsOffered('sent marker-3')).not.toContain('exec');
  }, 90_000);

  it("without visibility, a restricted agent cannot reach the wider agent's session at all", async () => {
    const { kernel, host } = setup('tree');
    await host.store.upsert('main-home', { agentId: 'main', kind: 'main' });
    const outcome = await call(kernel, 'restricted', 'r-2', 'sessions_send', {
      sessionId: 'main-home',
      message: 'reach marker-4',
    });
    expect(outcome.status === 'error' ? outcome.error.code : outcome.status).toBe(SessionsErrors.SESSION_NOT_VISIBLE);
    expect(bed.mock.requests.some((r) => r.raw.includes('reach marker-4'))).toBe(false);
  }, 90_000);
});
