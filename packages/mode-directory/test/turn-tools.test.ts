// Directory mode shows the few likely-needed tools for the current turn (ranked from its last user message) with
// their schemas, besides the static visible list: policy-safe, bounded, and the same for every request of a turn.
import { describe, expect, it } from 'vitest';
import { createKernel, type RunRequest, type ToolDefinition } from '@tool-search/kernel';
import { fakeTool } from '@tool-search/testing';
import { directoryModePlugin, type DirectoryModeOptions } from '../src/index.js';
import { denyPolicyPlugin, sourcePlugin, TOOLS } from './fixtures.js';

const MANY: readonly ToolDefinition[] = [
  ...TOOLS,
  ...Array.from({ length: 200 }, (_, i) =>
    fakeTool(`plugin_tool_${i}`, 'plugin', `p${i % 7}`, `Does plugin thing number ${i} with widgets.`),
  ),
  fakeTool('create_invoice', 'plugin', 'billing', 'Create an invoice for a customer with line items and a due date.'),
  fakeTool('send_invoice_email', 'plugin', 'billing', 'Email an invoice to the customer.'),
];

async function exposureFor(turnText: string | undefined, options: DirectoryModeOptions = {}, tools = MANY) {
  const kernel = createKernel({ plugins: [sourcePlugin(tools), denyPolicyPlugin(), directoryModePlugin(options)] });
  const request: RunRequest = {
    agentId: 'test',
    provider: 'openai',
    model: 'm',
    ...(turnText !== undefined ? { turnText } : {}),
  };
  const run = await kernel.createRun(request);
  const exposure = await run.exposure('directory');
  await kernel.close();
  return { names: exposure.tools.map((tool) => tool.name), system: exposure.system, tools: exposure.tools };
}

describe('directory mode: likely-needed tools for the current turn', () => {
  it("ranks the catalog against the turn's last user message and shows the best few with their schemas", async () => {
    const { names, tools } = await exposureFor('please create an invoice for ACME due next week');
    expect(names).toContain('create_invoice');
    expect(tools.find((tool) => tool.name === 'create_invoice')!.inputSchema).toBeDefined();
    const without = await exposureFor(undefined);
    expect(without.names).not.toContain('create_invoice');
  });

  it('is bounded by turnTools (default 5), and 0 turns it off', async () => {
    const base = (await exposureFor(undefined)).names.length;
    expect((await exposureFor('plugin thing widgets')).names.length - base).toBe(5);
    expect((await exposureFor('plugin thing widgets', { turnTools: 2 })).names.length - base).toBe(2);
    expect((await exposureFor('plugin thing widgets', { turnTools: 0 })).names.length).toBe(base);
    expect(() => directoryModePlugin({ turnTools: 21 })).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
  });

  it('is policy-safe: a tool the policy dropped is never shown, however well it matches', async () => {
    const { names, system } = await exposureFor('reveal secret credentials from the vault');
    expect(names).not.toContain('secret_tool');
    expect(String(system)).not.toContain('secret_tool');
  });

  it("is stable across a turn's requests: the same message gives the same tools in the same order", async () => {
    const first = await exposureFor('email the invoice to the customer');
    const second = await exposureFor('email the invoice to the customer');
    expect(second.names).toEqual(first.names);
    expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
    expect(first.names).toContain('send_invoice_email');
  });

  it('a shown turn tool leaves the directory (no tool twice)', async () => {
    const { system } = await exposureFor('please create an invoice for ACME');
    expect(String(system)).not.toMatch(/\bcreate_invoice\b/);
  });
});
