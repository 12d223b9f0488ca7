/**
 * A real redis-server stopped and restarted in the middle of one gateway
 * turn (by a test plugin between two of the turn's tool calls, so the
 * timing is the turn's own): while it is down every loop-checked call and
 * every approval fails closed with STATE_UNAVAILABLE, none runs; after it is
 * back the same turn goes on, and the turn's answer reaches the client.
 * An approval pending across the restart is not lost: it is listed again
 * and answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import type { KernelPlugin, ToolCallOutcome } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { SharedApprovalQueue } from '@tool-search/plugin-approvals';
import { createToolSearchKernel } from '@tool-search/preset';
import { connectRedisState, type StateStore } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { startGatewayServer, type GatewayServer } from '@tool-search/gateway';

const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn(
    'skipping the gateway Redis outage tests: redis-server is not installed (apt-get install -y redis-server)',
  );

interface Seen {
  readonly name: string;
  readonly status: ToolCallOutcome['status'];
  readonly text: string;
}

describe.runIf(haveRedis)('a Redis outage in the middle of a gateway turn', () => {
  let redis: RedisServerHandle;
  let state: StateStore;
  let queue: SharedApprovalQueue;
  let provider: MockOpenAI;
  let gateway: GatewayServer;
  let close: () => Promise<void>;
  const seen: Seen[] = [];
  /** What the test plugin does after a call: keyed by the call's `path` argument. */
  const after = new Map<string, () => Promise<void>>();

  const backUp = async () => {
    await redis.start();
    await expect.poll(() => state.ping(), { timeout: 15_000, interval: 50 }).toBe(true);
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    state = await connectRedisState({
      url: redis.url,
      keyPrefix: `gw-outage-${process.pid}:`,
      commandTimeoutMs: 500,
      onError: () => undefined,
    });
    queue = new SharedApprovalQueue(state);
    const observer: KernelPlugin = {
      name: 'outage-observer',
      apply: ({ hooks }) =>
        hooks.afterToolCall.tapPromise(async (call, outcome) => {
          const text =
            outcome.status === 'ok'
              ? JSON.stringify(outcome.result.content)
              : 'reason' in outcome
                ? String(outcome.reason)
                : JSON.stringify(outcome);
          seen.push({ name: call.tool.name, status: outcome.status, text });
          await after.get(String(call.args.path))?.();
        }),
    };
    const preset = await createToolSearchKernel(
      {
        plugins: { 'fake-catalog': { tools: 3, core: true } },
        tools: { loopDetection: { enabled: true }, approvals: { require: ['write'], timeoutMs: 60_000 } },
      },
      { state, approve: queue.approve, plugins: [observer] },
    );
    provider = await startMockOpenAI();
    gateway = await startGatewayServer({
      kernel: preset.kernel,
      client: new OpenAI({ baseURL: provider.url, apiKey: 'mock', maxRetries: 0 }),
      model: 'mock-model',
      mode: 'direct',
      countTokens: false,
      log: () => undefined,
    });
    close = async () => {
      await gateway.close();
      await preset.kernel.close();
      await queue.close();
      await state.close();
      await provider.close();
      await redis.stop();
    };
  }, 60_000);
  afterAll(() => close?.());

  const client = () => new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0, timeout: 120_000 });
  const turn = (steps: { tool: string; args: Record<string, unknown> }[]) =>
    client().chat.completions.create({
      model: 'mock-model',
      messages: [{ role: 'user', content: `tool search qa steps ${JSON.stringify(steps)}` }],
    });

  /** Approves the first pending approval once it is listed (as an operator would, through any replica). */
  async function approveWhenListed(): Promise<void> {
    let pending: { id: string }[] = [];
    await expect
      .poll(async () => (pending = await queue.list().catch(() => [])).length, { timeout: 30_000, interval: 50 })
      .toBeGreaterThan(0);
    expect(await queue.answer(pending[0]!.id, 'allow')).toBe(true);
  }

  it('fails closed while Redis is down and resumes within the same turn once it is back', async () => {
    seen.length = 0;
    after.set('a.txt', () => redis.stop());
    after.set('c.txt', backUp);
    const approved = approveWhenListed();
    const completion = await turn([
      { tool: 'read', args: { path: 'a.txt' } },
      { tool: 'read', args: { path: 'b.txt' } },
      { tool: 'write', args: { path: 'c.txt', content: 'written during the outage' } },
      { tool: 'read', args: { path: 'd.txt' } },
      { tool: 'write', args: { path: 'e.txt', content: 'written after the outage' } },
    ]);
    await approved;
    after.clear();
    // Every call of the turn is accounted for and the answer reached the client.
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(seen.map((s) => `${s.name}:${s.status}`)).toEqual([
      'read:ok',
      'read:blocked',
      'write:blocked',
      'read:ok',
      'write:ok',
    ]);
    for (const blocked of seen.filter((s) => s.status === 'blocked'))
      expect(blocked.text).toContain('STATE_UNAVAILABLE');
  }, 120_000);

  it('keeps an approval pending across a restart: refused while down, listed and answered after', async () => {
    seen.length = 0;
    const answer = turn([{ tool: 'write', args: { path: 'f.txt', content: 'approved across the restart' } }]);
    await expect
      .poll(async () => (await queue.list().catch(() => [])).length, { timeout: 30_000, interval: 50 })
      .toBe(1);
    const [pending] = await queue.list();
    await redis.stop();
    // Nobody can answer while the store is down: the call is not let through.
    await expect(queue.answer(pending!.id, 'allow')).rejects.toMatchObject({ code: 'STATE_UNAVAILABLE' });
    await backUp();
    // Redis came back empty; the waiting replica puts its pending approval back, and an answer releases the call.
    await approveWhenListed();
    const completion = await answer;
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(seen.map((s) => `${s.name}:${s.status}`)).toEqual(['write:ok']);
  }, 120_000);
});
