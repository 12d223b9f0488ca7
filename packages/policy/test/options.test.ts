import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import { parsePolicyOptions, policyPlugin } from '../src/index.js';

function configError(options: unknown): { code?: string; path?: string; rule?: string } {
  try {
    parsePolicyOptions(options);
  } catch (error) {
    expect(ToolSearchError.isInstance(error)).toBe(true);
    return error as { code: string; path: string; rule: string };
  }
  throw new Error('expected a ConfigError');
}

describe('policy options validation', () => {
  it('accepts no options and an empty policy', () => {
    expect(() => policyPlugin()).not.toThrow();
    expect(() => policyPlugin({ tools: {}, agents: { list: [] } })).not.toThrow();
  });

  it('accepts keys of tools and agents that other packages own', () => {
    expect(() =>
      parsePolicyOptions({
        tools: { exec: { host: 'sandbox' }, elevated: {}, sandbox: { tools: { allow: ['read'] }, other: 1 } },
        agents: {
          defaults: {},
          list: [{ id: 'a', workspace: '~/w', sandbox: { mode: 'all' }, tools: { elevated: {} } }],
        },
        gateway: { port: 1 },
      }),
    ).not.toThrow();
  });

  it('rejects an unknown agent profile with its path', () => {
    expect(configError({ agents: { list: [{ id: 'a', tools: { profile: 'root' } }] } })).toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
      path: 'agents.list[0].tools.profile',
      rule: 'enum',
    });
  });

  it('rejects an unknown byProvider profile with its path', () => {
    expect(configError({ tools: { byProvider: { 'openai/gpt-5.2': { profile: 'nope' } } } })).toMatchObject({
      path: 'tools.byProvider["openai/gpt-5.2"].profile',
      rule: 'enum',
    });
  });

  it('rejects entries that are not strings, and empty entries', () => {
    expect(configError({ tools: { deny: [42] } })).toMatchObject({ path: 'tools.deny[0]', rule: 'type' });
    expect(configError({ tools: { allow: [''] } })).toMatchObject({ path: 'tools.allow[0]', rule: 'minLength' });
    expect(configError({ tools: { deny: 'exec' } })).toMatchObject({ path: 'tools.deny', rule: 'type' });
  });

  it('rejects a misspelled key where a typo would silently widen the policy', () => {
    expect(configError({ tools: { byProvider: { openai: { denny: ['exec'] } } } })).toMatchObject({
      rule: 'additionalProperties',
    });
    expect(configError({ tools: { sandbox: { tools: { alow: ['read'] } } } })).toMatchObject({
      rule: 'additionalProperties',
    });
  });

  it('rejects an agent without an id', () => {
    expect(configError({ agents: { list: [{ tools: {} }] } })).toMatchObject({ rule: 'required' });
  });

  it('rejects duplicate agent ids (case-insensitive)', () => {
    expect(configError({ agents: { list: [{ id: 'a' }, { id: 'A' }] } })).toMatchObject({
      path: 'agents.list[1].id',
      rule: 'unique',
    });
  });

  it('rejects byProvider keys that differ only by case', () => {
    expect(configError({ tools: { byProvider: { OpenAI: {}, openai: {} } } })).toMatchObject({
      path: 'tools.byProvider',
      rule: 'unique',
    });
  });

  it('returns a frozen copy', () => {
    const input = { tools: { deny: ['exec'] } };
    const parsed = parsePolicyOptions(input);
    expect(parsed).not.toBe(input);
    expect(Object.isFrozen(parsed.tools!.deny)).toBe(true);
  });
});
