import { describe, expect, it } from 'vitest';
import { providerCandidates, resolvePolicy, type PolicyOptions } from '../src/index.js';
import { names, runWith } from './fixtures.js';

describe('byProvider', () => {
  it('applies the entry for the run provider', async () => {
    const options: PolicyOptions = { tools: { byProvider: { anthropic: { allow: ['read', 'exec'] } } } };
    expect(names(await runWith(options, { provider: 'anthropic', model: 'claude' }))).toEqual(['exec', 'read']);
  });

  it('does nothing for other providers', async () => {
    const options: PolicyOptions = { tools: { byProvider: { anthropic: { allow: ['read'] } } } };
    expect(names(await runWith(options, { provider: 'openai', model: 'gpt-5.2' }))).toContain('exec');
  });

  it('uses only the most specific key: provider/model beats provider', async () => {
    const options: PolicyOptions = {
      tools: { byProvider: { openai: { allow: ['read'] }, 'openai/gpt-5.2': { allow: ['exec'] } } },
    };
    expect(names(await runWith(options, { provider: 'openai', model: 'gpt-5.2' }))).toEqual(['exec']);
    expect(names(await runWith(options, { provider: 'openai', model: 'gpt-4o' }))).toEqual(['read']);
  });

  it('matches keys case-insensitively', async () => {
    const options: PolicyOptions = { tools: { byProvider: { 'OpenAI/GPT-5.2': { deny: ['exec'] } } } };
    expect(names(await runWith(options, { provider: 'openai', model: 'gpt-5.2' }))).not.toContain('exec');
  });

  it('accepts a model id that already carries the provider', () => {
    expect(providerCandidates({ provider: 'openai', model: 'openai/gpt-5.2' })).toEqual(['openai/gpt-5.2', 'openai']);
    expect(providerCandidates({ model: 'openai/gpt-5.2' })).toEqual(['openai/gpt-5.2', 'openai']);
    expect(providerCandidates({})).toEqual([]);
  });

  it('applies a byProvider profile as a further narrowing step', async () => {
    const options: PolicyOptions = {
      tools: { profile: 'coding', byProvider: { 'google-antigravity': { profile: 'minimal' } } },
    };
    expect(names(await runWith(options, { provider: 'google-antigravity' }))).toEqual(['session_status']);
  });

  it('cannot widen the base profile', async () => {
    const options: PolicyOptions = {
      tools: { profile: 'minimal', byProvider: { openai: { profile: 'full', allow: ['exec'] } } },
    };
    expect(names(await runWith(options, { provider: 'openai' }))).toEqual(['session_status']);
    const narrowing: PolicyOptions = {
      tools: { profile: 'minimal', byProvider: { openai: { profile: 'coding', allow: ['session_status'] } } },
    };
    expect(names(await runWith(narrowing, { provider: 'openai' }))).toEqual(['session_status']);
  });

  it('applies a byProvider deny', async () => {
    const options: PolicyOptions = { tools: { byProvider: { openai: { deny: ['group:runtime'] } } } };
    const run = await runWith(options, { provider: 'openai' });
    expect(names(run)).not.toContain('exec');
    expect(names(run)).toContain('read');
  });

  it('applies the global entry, then the agent entry', async () => {
    const options: PolicyOptions = {
      tools: { byProvider: { openai: { allow: ['read', 'write', 'exec'] } } },
      agents: { list: [{ id: 'dev', tools: { byProvider: { 'openai/gpt-5.2': { deny: ['write'] } } } }] },
    };
    expect(names(await runWith(options, { agentId: 'dev', provider: 'openai', model: 'gpt-5.2' }))).toEqual([
      'exec',
      'read',
    ]);
    const policy = resolvePolicy(options, { agentId: 'dev', provider: 'openai', model: 'gpt-5.2' });
    expect(policy.providerKeys).toEqual(['openai', 'openai/gpt-5.2']);
    expect(policy.rules.map((rule) => rule.step)).toEqual([
      'tools.byProvider[openai].allow',
      'agents.list[dev].tools.byProvider[openai/gpt-5.2].deny',
    ]);
  });

  it('ignores an agent byProvider entry for runs of other agents', async () => {
    const options: PolicyOptions = {
      agents: { list: [{ id: 'dev', tools: { byProvider: { openai: { deny: ['read'] } } } }, { id: 'ops' }] },
    };
    expect(names(await runWith(options, { agentId: 'ops', provider: 'openai' }))).toContain('read');
  });

  it('does not ignore a byProvider allowlist that names unknown tools (it still narrows)', async () => {
    const options: PolicyOptions = { tools: { byProvider: { openai: { allow: ['not_loaded_tool'] } } } };
    const run = await runWith(options, { provider: 'openai' });
    expect(run.catalog).toEqual([]);
  });
});
