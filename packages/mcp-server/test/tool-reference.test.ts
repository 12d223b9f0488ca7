/** Which clients get `tool_reference` blocks (the full flow, with a real server and search: e2e/test/mcp-server/app-visibility.test.ts). */
import { describe, expect, it } from 'vitest';
import { wantsToolReferences } from '../src/tool-reference.js';

describe('wantsToolReferences', () => {
  it('is Claude Code, by its clientInfo name', () => {
    expect(wantsToolReferences({ name: 'claude-code', version: '2.1.143' }, {})).toBe(true);
    expect(wantsToolReferences({ name: 'Claude Desktop', version: '1' }, {})).toBe(false);
    expect(wantsToolReferences({ name: 'claude-code-proxy', version: '1' }, {})).toBe(false);
  });

  it('is any client declaring experimental.toolReference', () => {
    expect(wantsToolReferences({ name: 'agent', version: '1' }, { experimental: { toolReference: {} } })).toBe(true);
    expect(wantsToolReferences({ name: 'agent', version: '1' }, { experimental: {} })).toBe(false);
    expect(wantsToolReferences(undefined, undefined)).toBe(false);
  });
});
