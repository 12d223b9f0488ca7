/**
 * The examples of the OpenClaw tools docs, as tests. Sources:
 * - https://docs.openclaw.ai/tools (Disabling tools, Tool profiles, Provider-specific tool policy)
 * - https://docs.openclaw.ai/tools/multi-agent-sandbox-tools (Example 1: family agent; Example 2b)
 * - docs/concepts/multi-agent.md of clawdbot (per-agent sandbox and tools, v2026.1.6)
 * - https://docs.openclaw.ai/gateway/config-tools/tool-policy ("`tools.profile` sets a base allowlist before
 *   `tools.allow`/`tools.deny`"): within a scope the profile is the base and `allow` adds to it; without a
 *   profile `allow` alone is the allowlist; byProvider only narrows; deny always wins.
 */

import { describe, expect, it } from 'vitest';
import type { PolicyOptions } from '../src/index.js';
import { DEFAULT_CATALOG, INVENTORY, names, runWith, type CatalogSpec } from './fixtures.js';
import { PolicyErrors } from '../src/errors.js';

const CORE_ONLY: CatalogSpec = { core: INVENTORY };
const WITH_CHAT: CatalogSpec = { core: INVENTORY, plugins: { chat: ['slack', 'discord'] } };
const CODING = [
  'apply_patch',
  'bash',
  'edit',
  'exec',
  'image',
  'memory_get',
  'memory_search',
  'process',
  'read',
  'session_status',
  'sessions_history',
  'sessions_list',
  'sessions_send',
  'sessions_spawn',
  'write',
];
const MESSAGING = ['message', 'session_status', 'sessions_history', 'sessions_list', 'sessions_send'];

describe('OpenClaw docs examples', () => {
  it('tools: { deny: ["browser"] } removes browser and nothing else', async () => {
    const run = await runWith({ tools: { deny: ['browser'] } }, {}, CORE_ONLY);
    expect(names(run)).toEqual([...INVENTORY].filter((n) => n !== 'browser').sort());
  });

  it('messaging profile + allow ["slack", "discord"] without those plugins: the allowlist is ignored, messaging stays', async () => {
    const run = await runWith({ tools: { profile: 'messaging', allow: ['slack', 'discord'] } }, {}, CORE_ONLY);
    expect(names(run)).toEqual(MESSAGING);
    expect(run.diagnostics.map((d) => d.code)).toContain(PolicyErrors.POLICY_ALLOWLIST_IGNORED);
  });

  it('messaging profile + allow ["slack", "discord"] with those plugins: the messaging profile plus slack and discord', async () => {
    const run = await runWith({ tools: { profile: 'messaging', allow: ['slack', 'discord'] } }, {}, WITH_CHAT);
    expect(names(run)).toEqual([...MESSAGING, 'slack', 'discord'].sort());
    expect(run.explain('slack').steps).toMatchObject([{ step: 'tools.allow', kept: true, rule: 'slack' }]);
    expect(run.explain('message').steps).toMatchObject([
      { step: 'profile:messaging', kept: true, rule: 'group:messaging' },
    ]);
    expect(run.explain('read').steps).toMatchObject([
      { step: 'profile:messaging + tools.allow', kept: false, rule: 'no allow entry matches' },
    ]);
  });

  it('allow ["group:fs", "browser"] without a profile: only those tools', async () => {
    const run = await runWith({ tools: { allow: ['group:fs', 'browser'] } }, {}, WITH_CHAT);
    expect(names(run)).toEqual(['apply_patch', 'browser', 'edit', 'read', 'write']);
  });

  it('deny always wins over a profile and an allow that adds', async () => {
    const run = await runWith(
      { tools: { profile: 'messaging', allow: ['slack', 'discord'], deny: ['discord', 'sessions_*'] } },
      {},
      WITH_CHAT,
    );
    expect(names(run)).toEqual(['message', 'session_status', 'slack']);
    expect(run.explain('discord').steps).toMatchObject([
      { step: 'tools.allow', kept: true },
      { step: 'tools.deny', kept: false, rule: 'discord' },
    ]);
  });

  it('coding profile, but deny exec/process everywhere (deny: ["group:runtime"])', async () => {
    const run = await runWith({ tools: { profile: 'coding', deny: ['group:runtime'] } }, {}, CORE_ONLY);
    expect(names(run)).toEqual(CODING.filter((n) => !['exec', 'bash', 'process'].includes(n)));
  });

  it('global coding profile, messaging-only support agent (profile messaging, allow ["slack"]): messaging plus slack for that agent only', async () => {
    const options: PolicyOptions = {
      tools: { profile: 'coding' },
      agents: {
        list: [
          { id: 'main', default: true },
          { id: 'support', tools: { profile: 'messaging', allow: ['slack'] } },
        ],
      },
    };
    expect(names(await runWith(options, { agentId: 'main' }, WITH_CHAT))).toEqual(CODING);
    expect(names(await runWith(options, {}, WITH_CHAT))).toEqual(CODING);
    expect(names(await runWith(options, { agentId: 'support' }, WITH_CHAT))).toEqual([...MESSAGING, 'slack'].sort());
  });

  it('keep global coding profile, but minimal tools for google-antigravity', async () => {
    const options: PolicyOptions = {
      tools: { profile: 'coding', byProvider: { 'google-antigravity': { profile: 'minimal' } } },
    };
    expect(names(await runWith(options, { provider: 'google-antigravity', model: 'gemini-3' }, CORE_ONLY))).toEqual([
      'session_status',
    ]);
    expect(names(await runWith(options, { provider: 'anthropic' }, CORE_ONLY))).toEqual(CODING);
  });

  it('provider/model-specific allowlist for a flaky endpoint (openai/gpt-5.2)', async () => {
    const options: PolicyOptions = {
      tools: {
        allow: ['group:fs', 'group:runtime', 'sessions_list'],
        byProvider: { 'openai/gpt-5.2': { allow: ['group:fs', 'sessions_list'] } },
      },
    };
    expect(names(await runWith(options, { provider: 'openai', model: 'gpt-5.2' }, CORE_ONLY))).toEqual([
      'apply_patch',
      'edit',
      'read',
      'sessions_list',
      'write',
    ]);
    expect(names(await runWith(options, { provider: 'openai', model: 'gpt-4.1' }, CORE_ONLY))).toEqual([
      'apply_patch',
      'bash',
      'edit',
      'exec',
      'process',
      'read',
      'sessions_list',
      'write',
    ]);
  });

  it('agent-specific override for a single provider (support on google-antigravity: message, sessions_list)', async () => {
    const options: PolicyOptions = {
      agents: {
        list: [
          { id: 'support', tools: { byProvider: { 'google-antigravity': { allow: ['message', 'sessions_list'] } } } },
        ],
      },
    };
    expect(names(await runWith(options, { agentId: 'support', provider: 'google-antigravity' }, CORE_ONLY))).toEqual([
      'message',
      'sessions_list',
    ]);
    expect(names(await runWith(options, { agentId: 'support', provider: 'openai' }, CORE_ONLY))).toHaveLength(
      INVENTORY.length,
    );
  });

  it('Example 1: personal agent has full access; the sandboxed family agent only read', async () => {
    const options: PolicyOptions = {
      agents: {
        list: [
          { id: 'main', default: true, sandbox: { mode: 'off' } },
          {
            id: 'family',
            sandbox: { mode: 'all', scope: 'agent' },
            tools: { allow: ['read'], deny: ['exec', 'write', 'edit', 'apply_patch', 'process', 'browser'] },
          },
        ],
      },
    };
    expect((await runWith(options, { agentId: 'main' })).catalog).toHaveLength((await runWith({})).catalog.length);
    expect(names(await runWith(options, { agentId: 'family', sandboxed: true }))).toEqual(['read']);
  });

  it('per-agent tools in the multi-agent concept page: family allow ["read"], deny ["bash", "write", "edit"]', async () => {
    const options: PolicyOptions = {
      agents: { list: [{ id: 'family', tools: { allow: ['read'], deny: ['bash', 'write', 'edit'] } }] },
    };
    expect(names(await runWith(options, { agentId: 'family' }, DEFAULT_CATALOG))).toEqual(['read']);
  });

  it('profile coding + deny ["group:ui", "group:web"] for one agent', async () => {
    const options: PolicyOptions = {
      agents: { list: [{ id: 'a', tools: { profile: 'coding', deny: ['group:ui', 'group:web'] } }] },
    };
    expect(names(await runWith(options, { agentId: 'a' }, CORE_ONLY))).toEqual(CODING);
  });

  it('explicit allow without a profile: ["read", "session_status", "memory_search"]', async () => {
    const options: PolicyOptions = {
      agents: { list: [{ id: 'a', tools: { allow: ['read', 'session_status', 'memory_search'] } }] },
    };
    expect(names(await runWith(options, { agentId: 'a' }))).toEqual(['memory_search', 'read', 'session_status']);
  });

  it('profile messaging + allow ["web_search"]: messaging plus web_search', async () => {
    const options: PolicyOptions = {
      agents: { list: [{ id: 'a', tools: { profile: 'messaging', allow: ['web_search'] } }] },
    };
    expect(names(await runWith(options, { agentId: 'a' }, CORE_ONLY))).toEqual([...MESSAGING, 'web_search'].sort());
  });
});
