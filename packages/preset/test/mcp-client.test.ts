/**
 * The preset's MCP client side: the workspace (`plugins.core.workspace`, else
 * `agents.defaults.workspace`) is offered to MCP servers as their root; without
 * one no root is declared.
 * The server is plugin-mcp's fixture whose `ask` tool sends the client any request.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ToolSearchConfig } from '@tool-search/config';
import { createToolSearchKernel } from '@tool-search/preset';

const asks = {
  command: process.execPath,
  args: [fileURLToPath(new URL('../../plugin-mcp/test/fixtures/misbehaving-server.mjs', import.meta.url)), 'asks'],
};

async function rootsReply(config: ToolSearchConfig): Promise<unknown> {
  const { kernel } = await createToolSearchKernel(config, { mcpClient: {} });
  try {
    const run = await kernel.createRun();
    const outcome = await run.call('mcp:asks:ask', { method: 'roots/list', params: {} });
    return outcome.status === 'ok'
      ? (outcome.result.structuredContent as { result?: unknown; error?: unknown })
      : outcome;
  } finally {
    await kernel.close();
  }
}

describe('MCP roots from the workspace', () => {
  it('offers agents.defaults.workspace as the root', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'tool-search-workspace-'));
    const reply = await rootsReply({ agents: { defaults: { workspace } }, mcp: { servers: { asks } } });
    expect(reply).toMatchObject({ result: { roots: [{ uri: pathToFileURL(workspace).href, name: 'workspace' }] } });
  }, 30_000);

  it('declares no roots without a workspace', async () => {
    const reply = await rootsReply({ mcp: { servers: { asks } } });
    expect(reply).toMatchObject({ error: { code: -32601 } });
  }, 30_000);
});

describe('Preset.mcpServers', () => {
  it("reports each configured MCP server's state once a run listed it, and is absent without servers", async () => {
    const preset = await createToolSearchKernel({ mcp: { servers: { asks } } }, { mcpClient: {} });
    try {
      await (await preset.kernel.createRun()).close();
      expect(preset.mcpServers?.()).toEqual([
        expect.objectContaining({
          name: 'asks',
          state: 'connected',
          transport: 'stdio',
          protocolVersion: expect.any(String),
        }),
      ]);
    } finally {
      await preset.kernel.close();
    }
    const none = await createToolSearchKernel({ plugins: {} });
    expect(none.mcpServers).toBeUndefined();
    await none.kernel.close();
  });
});
