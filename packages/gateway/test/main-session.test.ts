/**
 * Issue 46: OpenClaw's main session. A request without `x-session-id` lands in its agent's direct-chat session
 * (`main`, `main:<agentId>` for another agent; behind keys one per key), driven by the official OpenAI and Anthropic
 * clients over real HTTP; a client that sends `x-session-id` keeps its own session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { createApiKeys, hashApiKey } from '@tool-search/auth';
import { ask, harness, type Harness } from './helpers.js';

const OPS_KEY = 'ops-key-0123456789abcdef';
const ANY_KEY = 'any-key-0123456789abcdef';
const CI_KEY = 'ci-key-0123456789abcdef';

let h: Harness;
let open: string;
let keyed: string;

beforeAll(async () => {
  h = await harness();
  open = (await h.gateway('direct')).server.url;
  const auth = createApiKeys({
    keys: [
      { name: 'ops', hash: hashApiKey(OPS_KEY), agents: ['ops'] },
      { name: 'any', hash: hashApiKey(ANY_KEY), agents: ['*'] },
      { name: 'ci', hash: hashApiKey(CI_KEY), agents: ['ci'] },
    ],
  });
  keyed = (await h.gateway('direct', { auth })).server.url;
});
afterAll(() => h.close());

const openai = (url: string, apiKey = 'none', headers: Record<string, string> = {}) =>
  new OpenAI({ baseURL: url, apiKey, maxRetries: 0, defaultHeaders: headers });

/** The session a chat completion ran in, as the gateway's `x-session-id` answer header says. */
async function sessionOf(client: OpenAI): Promise<string | null> {
  const { response } = await client.chat.completions
    .create({ model: 'm', messages: ask('fake_plugin_tool_0003') })
    .withResponse();
  return response.headers.get('x-session-id');
}

describe('the main session (no x-session-id)', () => {
  it('a request without x-session-id runs in the main session, every time', async () => {
    expect(await sessionOf(openai(open))).toBe('main');
    expect(await sessionOf(openai(open))).toBe('main');
    const claude = new Anthropic({ baseURL: open.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
    const message = await claude.messages.create({
      model: 'm',
      max_tokens: 64,
      messages: [{ role: 'user', content: ask('fake_plugin_tool_0003')[0]!.content }],
    });
    expect((message as unknown as { tool_search: { session_id: string } }).tool_search.session_id).toBe('main');
  });

  it("another agent's direct chat is its own main session; the default agent named is the same one", async () => {
    expect(await sessionOf(openai(open, 'none', { 'x-agent-id': 'coder' }))).toBe('main:coder');
    expect(await sessionOf(openai(open, 'none', { 'x-agent-id': 'main' }))).toBe('main');
  });

  it('a client that sends x-session-id keeps its own session', async () => {
    expect(await sessionOf(openai(open, 'none', { 'x-session-id': 'mine-1' }))).toBe('mine-1');
  });

  it('behind API keys each key has its own main session, and no key can take another one', async () => {
    expect(await sessionOf(openai(keyed, OPS_KEY))).toBe('main:ops@ops');
    expect(await sessionOf(openai(keyed, ANY_KEY))).toBe('main@any');
    // Another key naming a key's main session before that key ever used it (squatting) is refused…
    await expect(sessionOf(openai(keyed, ANY_KEY, { 'x-session-id': 'main:ci@ci' }))).rejects.toMatchObject({
      status: 403,
      code: 'AUTH_FORBIDDEN',
    });
    await expect(sessionOf(openai(keyed, ANY_KEY, { 'x-session-id': 'main@ci' }))).rejects.toMatchObject({
      status: 403,
    });
    // … so that key's own requests land there.
    expect(await sessionOf(openai(keyed, CI_KEY))).toBe('main:ci@ci');
    await expect(sessionOf(openai(keyed, ANY_KEY, { 'x-session-id': 'main:ops@ops' }))).rejects.toMatchObject({
      status: 403,
    });
  });
});
