/**
 * API keys on the gateway, driven by the official OpenAI and Anthropic
 * clients over real HTTP: no key and a wrong key get 401, a key acts only as
 * the agents it allows (403 otherwise), a non-loopback bind without keys
 * refuses to start, and loopback without keys stays open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { createApiKeys, hashApiKey } from '@tool-search/auth';
import { createKernel } from '@tool-search/kernel';
import { startGatewayServer, type TurnParty } from '@tool-search/gateway';
import { ask, harness, type Harness } from './helpers.js';

const OPS_KEY = 'ops-key-0123456789abcdef';
const ANY_KEY = 'any-key-0123456789abcdef';

let h: Harness;
let url: string;
const parties: TurnParty[] = [];

beforeAll(async () => {
  h = await harness();
  const auth = createApiKeys(
    {
      keys: [
        { name: 'ops', hash: hashApiKey(OPS_KEY), agents: ['ops', 'ci'] },
        { env: 'GATEWAY_TEST_KEY', agents: ['*'] },
      ],
    },
    { GATEWAY_TEST_KEY: ANY_KEY },
  );
  const { server } = await h.gateway('direct', {
    auth,
    toolSearchFor: (party) => {
      parties.push(party);
      return { mode: 'direct' };
    },
  });
  url = server.url;
});
afterAll(() => h.close());

const openai = (apiKey: string, headers: Record<string, string> = {}) =>
  new OpenAI({ baseURL: url, apiKey, maxRetries: 0, defaultHeaders: headers });
const claude = (apiKey: string, headers: Record<string, string> = {}) =>
  new Anthropic({ baseURL: url.replace(/\/v1$/, ''), apiKey, maxRetries: 0, defaultHeaders: headers });
const chat = (client: OpenAI) => client.chat.completions.create({ model: 'm', messages: ask('fake_plugin_tool_0003') });
const message = (client: Anthropic) =>
  client.messages.create({
    model: 'm',
    max_tokens: 64,
    messages: [{ role: 'user', content: ask('fake_plugin_tool_0003')[0]!.content }],
  });

describe('gateway API keys', () => {
  it('refuses a request without a key: 401 AUTH_REQUIRED, nothing runs', async () => {
    const before = parties.length;
    const raw = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: ask('x') }),
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({ error: { code: 'AUTH_REQUIRED', type: 'authentication_error' } });
    const anthropicShape = await fetch(`${url.replace(/\/v1$/, '')}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages: ask('x') }),
    });
    expect(await anthropicShape.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', code: 'AUTH_REQUIRED' },
    });
    expect(parties.length).toBe(before);
  });

  it('refuses a wrong key with 401 on all three APIs', async () => {
    await expect(chat(openai('wrong-key-0123456789abcdef'))).rejects.toMatchObject({
      status: 401,
      code: 'AUTH_INVALID',
    });
    await expect(openai(`${OPS_KEY}x`).responses.create({ model: 'm', input: 'hi' })).rejects.toMatchObject({
      status: 401,
    });
    await expect(message(claude('wrong-key-0123456789abcdef'))).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it('runs a key as its first agent, or the allowed agent x-agent-id picks', async () => {
    const first = await chat(openai(OPS_KEY));
    expect(first.choices[0]?.message.content).toContain('FAKE_TOOL_OK');
    expect(parties.at(-1)?.agentId).toBe('ops');
    await message(claude(OPS_KEY, { 'x-agent-id': 'ci' }));
    expect(parties.at(-1)?.agentId).toBe('ci');
  });

  it('refuses an agent the key does not allow: 403 AUTH_FORBIDDEN, nothing runs', async () => {
    const before = parties.length;
    await expect(chat(openai(OPS_KEY, { 'x-agent-id': 'admin' }))).rejects.toMatchObject({
      status: 403,
      code: 'AUTH_FORBIDDEN',
    });
    await expect(message(claude(OPS_KEY, { 'x-agent-id': 'admin' }))).rejects.toBeInstanceOf(
      Anthropic.PermissionDeniedError,
    );
    await expect(
      openai(OPS_KEY, { 'x-agent-id': 'admin' }).responses.create({ model: 'm', input: 'hi' }),
    ).rejects.toMatchObject({ status: 403 });
    expect(parties.length).toBe(before);
  });

  it('lets a "*" key (here from an env variable) pick any agent', async () => {
    await chat(openai(ANY_KEY, { 'x-agent-id': 'admin' }));
    expect(parties.at(-1)?.agentId).toBe('admin');
    await message(claude(ANY_KEY));
    expect(parties.at(-1)?.agentId).toBeUndefined();
  });

  it('refuses a session to a key other than the one that started it (x-session-id, previous_response_id)', async () => {
    const session = { 'x-session-id': 'shared-session-1' };
    await chat(openai(OPS_KEY, session));
    const before = parties.length;
    await expect(chat(openai(ANY_KEY, session))).rejects.toMatchObject({ status: 403, code: 'AUTH_FORBIDDEN' });
    await expect(message(claude(ANY_KEY, session))).rejects.toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect(parties.length).toBe(before);
    expect((await chat(openai(OPS_KEY, session))).choices[0]?.message.content).toContain('FAKE_TOOL_OK');
    const first = await openai(OPS_KEY).responses.create({
      model: 'm',
      input: ask('fake_plugin_tool_0003')[0]!.content,
    });
    await expect(
      openai(ANY_KEY).responses.create({ model: 'm', input: 'and then?', previous_response_id: first.id }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      openai(OPS_KEY).responses.create({
        model: 'm',
        input: ask('fake_plugin_tool_0003')[0]!.content,
        previous_response_id: first.id,
      }),
    ).resolves.toBeTruthy();
  });

  it('guards the extra routes and /v1/models too', async () => {
    await expect(openai('wrong-key-0123456789abcdef').models.list()).rejects.toMatchObject({ status: 401 });
    await expect(openai(OPS_KEY).models.list()).resolves.toBeTruthy();
  });

  it('refuses to bind beyond loopback without keys, naming the fix', async () => {
    const kernel = createKernel();
    const start = (extra: object) =>
      startGatewayServer({
        kernel,
        client: new OpenAI({ apiKey: 'x' }),
        model: 'm',
        mode: 'direct',
        host: '0.0.0.0',
        countTokens: false,
        ...extra,
      });
    await expect(start({})).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('auth.keys'),
    });
    await expect(start({ auth: createApiKeys(undefined) })).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    await kernel.close();
  });

  it('stays keyless on loopback without keys: x-agent-id picks as before', async () => {
    const { server } = await h.gateway('direct', {
      toolSearchFor: (party) => (parties.push(party), { mode: 'direct' }),
    });
    const keyless = new OpenAI({
      baseURL: server.url,
      apiKey: 'anything',
      maxRetries: 0,
      defaultHeaders: { 'x-agent-id': 'whoever' },
    });
    expect((await chat(keyless)).choices[0]?.message.content).toContain('FAKE_TOOL_OK');
    expect(parties.at(-1)?.agentId).toBe('whoever');
  });
});
