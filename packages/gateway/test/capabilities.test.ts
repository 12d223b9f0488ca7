/** The capability table: defaults, overrides ahead of them, the config form (`gateway.capabilities`) schema-checked. */
import { describe, expect, it } from 'vitest';
import { capabilitiesFromConfig, capabilityOf, supportsDeferredTools } from '@tool-search/gateway';

describe('capability table', () => {
  it('knows Claude 4.5+ and the mock as supporting the deferred features, other models none', () => {
    expect(capabilityOf('anthropic', 'claude-sonnet-4-5-20250929')).toEqual({
      deferLoading: true,
      toolSearch: true,
      toolReference: true,
      programmatic: true,
    });
    expect(capabilityOf('anthropic', 'claude-3-7-sonnet')).toEqual({
      deferLoading: false,
      toolSearch: false,
      toolReference: false,
      programmatic: false,
    });
    expect(capabilityOf('openai', 'gpt-5.4')).toEqual({
      deferLoading: false,
      toolSearch: false,
      toolReference: false,
      programmatic: false,
    });
    // Programmatic tool calling: Opus/Sonnet 4.5+, not Haiku; the mocks only when a rule says so.
    expect(capabilityOf('anthropic', 'claude-haiku-4-5').programmatic).toBe(false);
    expect(capabilityOf('anthropic', 'mock-claude').programmatic).toBe(false);
    const rules = capabilitiesFromConfig({ 'openai/mock-*': { programmatic: true } });
    expect(capabilityOf('openai', 'mock-model', rules)).toMatchObject({ programmatic: true, deferLoading: false });
  });

  it('reads the config form in key order, globs anywhere in the model, first match wins, ahead of the defaults', () => {
    const rules = capabilitiesFromConfig({
      'anthropic/claude-*-4-5-bedrock': { deferLoading: true, toolSearch: false, toolReference: true },
      'anthropic/claude-*': { deferLoading: false },
      'openai/local-*': { deferLoading: true, toolReference: true },
    });
    expect(capabilityOf('anthropic', 'claude-sonnet-4-5-bedrock', rules)).toEqual({
      deferLoading: true,
      toolSearch: false,
      toolReference: true,
      programmatic: false,
    });
    expect(supportsDeferredTools('anthropic', 'claude-sonnet-4-5-bedrock', rules)).toBe(false);
    expect(capabilityOf('anthropic', 'claude-opus-4-6', rules)).toEqual({
      deferLoading: false,
      toolSearch: false,
      toolReference: false,
      programmatic: false,
    });
    expect(capabilityOf('openai', 'local-qwen', rules)).toEqual({
      deferLoading: true,
      toolSearch: false,
      toolReference: true,
      programmatic: false,
    });
    // A glob's other characters are literal: `.` is not "any character".
    expect(
      capabilityOf(
        'anthropic',
        'mock-claude',
        capabilitiesFromConfig({ 'anthropic/mock.claude': { deferLoading: false } }),
      ),
    ).toMatchObject({ deferLoading: true });
    expect(capabilitiesFromConfig(undefined)).toEqual([]);
  });

  it.each([
    ['a key without provider', { 'mock-claude': { deferLoading: true } }],
    ['an unknown provider', { 'gemini/x': { deferLoading: true } }],
    ['an unknown feature', { 'anthropic/x': { deferredLoading: true } }],
    ['a feature that is not a boolean', { 'anthropic/x': { toolSearch: 'yes' } }],
    ['a table that is not an object', ['anthropic/x']],
  ])('refuses %s with CONFIG_INVALID and the path', (_, table) => {
    let caught: unknown;
    try {
      capabilitiesFromConfig(table);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'CONFIG_INVALID', path: expect.stringMatching(/^\/gateway\/capabilities/) });
  });
});
