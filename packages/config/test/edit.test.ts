import { ErrorCode } from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import { getConfigValue, parseConfigPath, setConfigValue } from '../src/index.js';

describe('config paths', () => {
  it('parses dots, list indexes and quoted keys', () => {
    expect(parseConfigPath('agents.list[0].tools.allow')).toEqual(['agents', 'list', 0, 'tools', 'allow']);
    expect(parseConfigPath('mcp.servers["my.server"].command')).toEqual(['mcp', 'servers', 'my.server', 'command']);
    expect(parseConfigPath('plugins.fake-catalog.tools')).toEqual(['plugins', 'fake-catalog', 'tools']);
  });

  it.each(['', '.tools', 'tools..x', 'tools[x]', 'tools.'])('refuses the malformed path %j', (path) => {
    expect(() => parseConfigPath(path)).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID, rule: 'path' }),
    );
  });

  it('gets a value, or undefined when any part is missing', () => {
    const config = { tools: { toolSearch: { mode: 'tools' } }, agents: { list: [{ id: 'a' }] } };
    expect(getConfigValue(config, 'tools.toolSearch.mode')).toBe('tools');
    expect(getConfigValue(config, 'agents.list[0].id')).toBe('a');
    expect(getConfigValue(config, 'agents.list[3].id')).toBeUndefined();
    expect(getConfigValue(config, 'tools.toolSearch.mode.length')).toBeUndefined();
  });

  it('sets a value on a copy, creating what is missing on the way', () => {
    const config = { tools: { profile: 'coding' } };
    const next = setConfigValue(config, 'tools.toolSearch', { mode: 'tools' });
    expect(next).toEqual({ tools: { profile: 'coding', toolSearch: { mode: 'tools' } } });
    expect(config).toEqual({ tools: { profile: 'coding' } });
    expect(setConfigValue({}, 'agents.list[0].id', 'support')).toEqual({ agents: { list: [{ id: 'support' }] } });
  });

  it('refuses a list index more than one past the end, and setting below a non-object', () => {
    expect(() => setConfigValue({ agents: { list: [] } }, 'agents.list[2].id', 'x')).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID }),
    );
    expect(() => setConfigValue({ tools: { profile: 'coding' } }, 'tools.profile.x', 1)).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID }),
    );
  });
});

describe('config set values', () => {
  it('parses JSON5, and keeps other text as a string', async () => {
    const { parseConfigValue } = await import('../src/index.js');
    expect(parseConfigValue('true')).toBe(true);
    expect(parseConfigValue('{ mode: "tools" }')).toEqual({ mode: 'tools' });
    expect(parseConfigValue('["group:fs", "browser"]')).toEqual(['group:fs', 'browser']);
    expect(parseConfigValue('coding')).toBe('coding');
  });
});
