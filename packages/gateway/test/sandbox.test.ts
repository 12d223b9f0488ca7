/**
 * `sandboxFor`: the gateway marks a run `sandboxed` where the composer says so (the preset asks the config's
 * `sandbox.mode` and the session's spawning sessions; `packages/preset/test/gateway-sandbox.test.ts` runs that whole
 * path). HTTP turns, through the official OpenAI and Anthropic clients, and session turns alike.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { KernelPlugin, RunRequest } from '@tool-search/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionTurnRunner, type SandboxedParty } from '../src/index.js';
import { harness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close());

/** Records the request of every run the kernel opens. */
function requestsSeen(into: RunRequest[]): KernelPlugin {
  return {
    name: 'requests-seen',
    apply: ({ hooks }) => hooks.listTools.tap((_sink, ctx) => void into.push(ctx.run.request)),
  };
}

describe('sandboxFor', () => {
  it('marks the runs it names sandboxed, and only those', async () => {
    const seen: RunRequest[] = [];
    const asked: SandboxedParty[] = [];
    const sandboxFor = async (party: SandboxedParty) => {
      asked.push(party);
      return party.sessionId === 'jail';
    };
    const { server, client, kernel } = await h.gateway('direct', { sandboxFor, plugins: [requestsSeen(seen)] });
    const chat = (session: string) =>
      client.chat.completions.create(
        { model: 'mock-model', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'x-session-id': session, 'x-agent-id': 'main' } },
      );
    // The answer says so too (`tool_search.sandboxed`).
    expect(((await chat('jail')) as any).tool_search.sandboxed).toBe(true);
    expect(((await chat('free')) as any).tool_search.sandboxed).toBeUndefined();
    const anthropic = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
    await anthropic.messages.create(
      { model: 'mock-model', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] },
      { headers: { 'x-session-id': 'jail' } },
    );
    const runner = sessionTurnRunner({
      kernel,
      upstream: h.upstream('openai'),
      mode: 'direct',
      sandboxFor,
      countTokens: false,
    });
    await runner({ sessionId: 'jail', messages: [{ role: 'user', content: 'hi' }] });

    expect(seen.map((request) => [request.sessionId, request.sandboxed === true])).toEqual([
      ['jail', true],
      ['free', false],
      ['jail', true],
      ['jail', true],
    ]);
    expect(asked[0]).toEqual({ agentId: 'main', sessionId: 'jail' });
  });
});
