import { describe, expect, it } from 'vitest';
import { resolveToolSearchFor, validateConfig, type ToolSearchConfig } from '../src/index.js';

const config = validateConfig({
  tools: {
    toolSearch: { mode: 'code', maxSearchLimit: 12 },
    byProvider: {
      anthropic: { toolSearch: { mode: 'tools' } },
      'ollama/llama3': { toolSearch: false },
      ollama: { toolSearch: { mode: 'directory' } },
    },
  },
  agents: {
    list: [
      { id: 'weak', tools: { toolSearch: { mode: 'tools', searchDefaultLimit: 3 } } },
      { id: 'local', tools: { byProvider: { openai: { toolSearch: false } } } },
    ],
  },
}) as ToolSearchConfig;

describe('resolveToolSearchFor', () => {
  it('uses tools.toolSearch when nothing more specific matches', () => {
    const resolved = resolveToolSearchFor(config, { provider: 'openai', model: 'gpt-5' });
    expect(resolved).toMatchObject({ mode: 'code', maxSearchLimit: 12, sources: ['tools.toolSearch'] });
  });

  it('applies the provider override, keeping the base limits', () => {
    expect(resolveToolSearchFor(config, { provider: 'anthropic', model: 'claude' })).toMatchObject({
      mode: 'tools',
      maxSearchLimit: 12,
      sources: ['tools.toolSearch', 'tools.byProvider[anthropic].toolSearch'],
    });
  });

  it('prefers provider/model over provider, and false means direct', () => {
    expect(resolveToolSearchFor(config, { provider: 'ollama', model: 'llama3' })).toMatchObject({
      enabled: false,
      mode: 'direct',
      sources: ['tools.toolSearch', 'tools.byProvider[ollama/llama3].toolSearch'],
    });
    expect(resolveToolSearchFor(config, { provider: 'ollama', model: 'qwen' })).toMatchObject({ mode: 'directory' });
  });

  it('applies the agent override last, and the agent’s own byProvider after that', () => {
    expect(resolveToolSearchFor(config, { agentId: 'WEAK', provider: 'anthropic' })).toMatchObject({
      mode: 'tools',
      searchDefaultLimit: 3,
      sources: ['tools.toolSearch', 'tools.byProvider[anthropic].toolSearch', 'agents.list[0].tools.toolSearch'],
    });
    expect(resolveToolSearchFor(config, { agentId: 'local', provider: 'openai' })).toMatchObject({
      mode: 'direct',
      sources: ['tools.toolSearch', 'agents.list[1].tools.byProvider[openai].toolSearch'],
    });
  });

  it('turns tool search on for an override object over a disabled base', () => {
    const off = validateConfig({
      tools: { toolSearch: false },
      agents: { list: [{ id: 'a', tools: { toolSearch: { mode: 'tools' } } }] },
    }) as ToolSearchConfig;
    expect(resolveToolSearchFor(off, { agentId: 'a' })).toMatchObject({ enabled: true, mode: 'tools' });
    expect(resolveToolSearchFor(off, {})).toMatchObject({
      enabled: false,
      mode: 'direct',
      sources: ['tools.toolSearch'],
    });
  });

  it('rejects a bad override with the path, like tools.toolSearch', () => {
    expect(() => validateConfig({ tools: { byProvider: { openai: { toolSearch: { mode: 'fast' } } } } })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
    expect(() =>
      validateConfig({ agents: { list: [{ id: 'a', tools: { toolSearch: { modee: 'tools' } } }] } }),
    ).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});
