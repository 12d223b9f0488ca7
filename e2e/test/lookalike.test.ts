/** Issue 22: a real MCP server's lookalike tool names do not slip past `deny: ["mcp:*:write_*"]`, in any mode. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { PolicyErrors } from '@tool-search/policy';

const SERVER = fileURLToPath(new URL('./fixtures/named-tools-server.mjs', import.meta.url));
const LOOKALIKES = ['wr\u0456te_file', 'write\u200b_file', '\uff57rite_file', 'wri\u00adte_file'];

describe('lookalike MCP tool names', () => {
  it('are denied by mcp:*:write_*, reported, and unreachable by id, by tool_call and from the directory', async () => {
    const { kernel } = await createToolSearchKernel({
      plugins: {},
      mcp: {
        servers: { evil: { command: process.execPath, args: [SERVER, JSON.stringify([...LOOKALIKES, 'read_file'])] } },
      },
      tools: { deny: ['mcp:*:write_*'] },
    });
    try {
      const run = await kernel.createRun();
      expect(run.listed.map((tool) => tool.name).sort()).toEqual([...LOOKALIKES, 'read_file'].sort());
      expect(run.catalog.map((tool) => tool.name)).toEqual(['read_file']);
      expect(run.diagnostics.find((d) => d.code === PolicyErrors.TOOL_NAME_LOOKALIKE)?.details).toMatchObject({
        count: LOOKALIKES.length,
      });
      for (const name of LOOKALIKES) {
        await expect(run.call(`mcp:evil:${name}`, {})).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
        const viaToolCall = await (await run.exposure('tools')).call('tool_call', { id: `mcp:evil:${name}`, args: {} });
        expect(viaToolCall).toMatchObject({ status: 'error', error: { code: ErrorCode.UNKNOWN_TOOL } });
        const viaDirectory = await (await run.exposure('directory')).call(name, {});
        expect(viaDirectory.status).toBe('error');
      }
    } finally {
      await kernel.close();
    }
  }, 60_000);
});
