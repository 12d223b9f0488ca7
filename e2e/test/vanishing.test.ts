/**
 * Issue 22: with `allow: ["notes_search"]`, a healthy MCP server that stops listing notes_search must not turn the
 * allowlist into an ignored "unknown-only" one (which would make exec callable). Real MCP server over stdio.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { PolicyErrors } from '@tool-search/policy';

const SERVER = fileURLToPath(new URL('./fixtures/vanishing-server.mjs', import.meta.url));

describe('an allowlist of a running MCP server that stops listing its tool', () => {
  it('stays in force (fail closed): exec is not callable after notes_search vanished', async () => {
    let changed!: () => void;
    const listChanged = new Promise<void>((resolve) => (changed = resolve));
    const { kernel } = await createToolSearchKernel(
      {
        plugins: { 'fake-catalog': { tools: 0, core: true } },
        mcp: { servers: { notes: { command: process.execPath, args: [SERVER] } } },
        tools: { allow: ['notes_search'] },
      },
      { onMcpToolsChanged: () => changed() },
    );
    try {
      const first = await kernel.createRun();
      expect(first.catalog.map((tool) => tool.id)).toEqual(['mcp:notes:notes_search']);
      await first.close();
      await listChanged;
      const second = await kernel.createRun();
      expect(second.listed.map((tool) => tool.name)).toContain('notes_get');
      expect(second.listed.map((tool) => tool.name)).not.toContain('notes_search');
      expect(second.catalog).toEqual([]);
      await expect(second.call('exec', { command: 'id' })).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
      const kept = second.diagnostics.find((d) => d.code === PolicyErrors.POLICY_ALLOWLIST_IGNORED);
      expect(kept?.details).toMatchObject({ kept: true, reason: 'source-running' });
    } finally {
      await kernel.close();
    }
  }, 60_000);
});
