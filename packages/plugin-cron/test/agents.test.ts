/**
 * Issue 26: a cron job runs as its own agent, under that agent's policy. An agent cannot schedule, run, change or
 * remove jobs of an agent it may not spawn (agents.list[].subagents.allowAgents), a job without agentId runs as its
 * creator's agent (not the default one), and the model in a job's turn never sees a tool its agent denies.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { createKernel, type Kernel, type KernelPlugin, type ToolCallOutcome } from '@tool-search/kernel';
import { openaiUpstream, sessionTurnRunner } from '@tool-search/gateway';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createSessionHost } from '@tool-search/sessions';
import { policyPlugin } from '@tool-search/policy';
import { CronErrors, cronPlugin } from '@tool-search/plugin-cron';

const AGENTS = [
  { id: 'main', default: true, subagents: { allowAgents: ['restricted'] } },
  { id: 'restricted', tools: { deny: ['exec'] } },
];
const ran: string[] = [];
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
        execute: () => (ran.push('exec'), { content: [] }),
      }),
    ),
};

let mock: MockOpenAI;
const kernels: Kernel[] = [];
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((k) => k.close()));
});
afterAll(async () => {
  await mock.close();
});

function setup() {
  const host = createSessionHost();
  const dir = mkdtempSync(join(tmpdir(), 'cron-agents-'));
  const kernel = createKernel({
    plugins: [execSource, policyPlugin({ agents: { list: AGENTS } }), cronPlugin({ host, dir, agents: AGENTS })],
  });
  kernels.push(kernel);
  host.bind(
    sessionTurnRunner({
      kernel,
      mode: 'direct',
      countTokens: false,
      upstream: openaiUpstream(new OpenAI({ baseURL: mock.url, apiKey: 'mock', maxRetries: 0 }), 'mock-model'),
    }),
  );
  const cron = async (agentId: string, args: Record<string, unknown>) => {
    const run = await kernel.createRun({ sessionId: `${agentId}-session`, agentId });
    try {
      return await run.call('cron', args);
    } finally {
      await run.close();
    }
  };
  return { cron };
}

const data = (outcome: ToolCallOutcome) => {
  if (outcome.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(outcome)}`);
  return outcome.result.structuredContent as Record<string, any>;
};
const code = (outcome: ToolCallOutcome) => (outcome.status === 'error' ? outcome.error.code : outcome.status);
const job = (message: string, extra: Record<string, unknown> = {}) => ({
  schedule: { kind: 'cron', expr: '0 9 1 1 *' },
  payload: { kind: 'agentTurn', message },
  ...extra,
});

/** The tool names the model was offered in the turn whose last user message is `message` (polls: turns run in the background). */
async function toolsOffered(message: string): Promise<string[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const request = mock.requests.find((r) =>
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

describe('cron jobs run as their own agent', () => {
  it('an agent cannot schedule a job as a wider agent it may not spawn', async () => {
    const { cron } = setup();
    expect(code(await cron('restricted', { action: 'add', job: job('as main', { agentId: 'main' }) }))).toBe(
      CronErrors.CRON_AGENT_NOT_ALLOWED,
    );
    expect(code(await cron('restricted', { action: 'add', job: job('as MAIN', { agentId: 'MAIN' }) }))).not.toBe('ok');
    expect(data(await cron('main', { action: 'list' })).jobs).toEqual([]);
  });

  it("a job without agentId runs as its creator's agent, and its turn never offers a tool that agent denies", async () => {
    const { cron } = setup();
    const restricted = data(await cron('restricted', { action: 'add', job: job('restricted job turn') })).job;
    expect(restricted.agentId).toBe('restricted');
    const main = data(await cron('main', { action: 'add', job: job('main job turn') })).job;
    expect(main.agentId).toBe('main');
    data(await cron('restricted', { action: 'run', jobId: restricted.jobId }));
    data(await cron('main', { action: 'run', jobId: main.jobId }));
    expect(await toolsOffered('main job turn')).toContain('exec'); // positive control: main may use exec
    expect(await toolsOffered('restricted job turn')).not.toContain('exec');
    expect(ran).toEqual([]);
  });

  it("an agent cannot run, read, change, re-target or remove another agent's job, nor list it", async () => {
    const { cron } = setup();
    const main = data(await cron('main', { action: 'add', job: job('main only') })).job;
    const own = data(await cron('restricted', { action: 'add', job: job('own') })).job;
    for (const args of [
      { action: 'run', jobId: main.jobId },
      { action: 'runs', jobId: main.jobId },
      { action: 'update', jobId: main.jobId, patch: { payload: { kind: 'agentTurn', message: 'hijacked' } } },
      { action: 'update', jobId: own.jobId, patch: { agentId: 'main' } },
      { action: 'remove', jobId: main.jobId },
    ]) {
      expect(code(await cron('restricted', args))).toBe(CronErrors.CRON_AGENT_NOT_ALLOWED);
    }
    expect(data(await cron('restricted', { action: 'list' })).jobs.map((j: { jobId: string }) => j.jobId)).toEqual([
      own.jobId,
    ]);
    expect(
      data(await cron('main', { action: 'list' }))
        .jobs.map((j: { jobId: string }) => j.jobId)
        .sort(),
    ).toEqual([main.jobId, own.jobId].sort());
    expect(mock.requests.some((r) => r.raw.includes('hijacked'))).toBe(false);
  });

  it("an agent may schedule a job as an agent in its allowAgents; the job gets that agent's narrower policy", async () => {
    const { cron } = setup();
    const delegated = data(
      await cron('main', { action: 'add', job: job('delegated turn', { agentId: 'restricted' }) }),
    ).job;
    data(await cron('main', { action: 'run', jobId: delegated.jobId }));
    expect(await toolsOffered('delegated turn')).not.toContain('exec');
  });
});
