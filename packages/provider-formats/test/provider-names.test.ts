import { describe, expect, it } from 'vitest';
import { createProviderNameMap, PROVIDER_NAME_PATTERN, providerCandidates } from '../src/index.js';

describe('createProviderNameMap', () => {
  it('maps names deterministically and without collisions', () => {
    const names = ['a.b', 'a_b', 'a:b', 'x'.repeat(80), 'x'.repeat(81), 'ok_name'];
    const map = createProviderNameMap(names);
    const mapped = names.map((n) => map.toProvider(n));
    expect(new Set(mapped).size).toBe(names.length);
    for (const m of mapped) expect(m).toMatch(PROVIDER_NAME_PATTERN);
    expect(map.toProvider('a_b')).toBe('a_b');
    for (const n of names) expect(map.fromProvider(map.toProvider(n))).toBe(n);
    expect(createProviderNameMap(names).toProvider('a.b')).toBe(map.toProvider('a.b'));
  });

  it('keeps hostile names provider-safe (empty, only punctuation, unicode, 10k characters)', () => {
    const names = ['', '...', 'внешний.инструмент', '🔧', 'a'.repeat(10_000), 'a'.repeat(10_000) + 'b'];
    const map = createProviderNameMap(names);
    const mapped = names.map((n) => map.toProvider(n));
    for (const m of mapped) expect(m).toMatch(PROVIDER_NAME_PATTERN);
    expect(new Set(mapped).size).toBe(names.length);
    expect(map.fromProvider('not-a-mapped-name')).toBeUndefined();
  });
});

describe('providerCandidates', () => {
  it('lists provider/model then provider, lower-cased', () => {
    expect(providerCandidates({ provider: 'OpenAI', model: 'GPT-5' })).toEqual(['openai/gpt-5', 'openai']);
    expect(providerCandidates({ provider: 'openai', model: 'openai/gpt-5' })).toEqual(['openai/gpt-5', 'openai']);
    expect(providerCandidates({ model: 'anthropic/claude' })).toEqual(['anthropic/claude', 'anthropic']);
    expect(providerCandidates({ model: 'bare' })).toEqual([]);
    expect(providerCandidates({})).toEqual([]);
  });
});
