import { describe, expect, it } from 'vitest';
import { cli, folder } from './helpers.js';

const tools = [
  {
    type: 'function',
    function: {
      name: 'lookup_order',
      description: 'Look up a customer order by its number',
      parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
    },
  },
  {
    name: 'refund_payment',
    description: 'Refund a card payment',
    parameters: { type: 'object', properties: { amount: { type: 'number' } } },
  },
];
const cwd = folder({
  'tool-search.json': '{ plugins: { "fake-catalog": { tools: 2, core: true } } }',
  'client-tools.json': JSON.stringify(tools),
  'bad-tools.json': JSON.stringify([{ description: 'no name' }]),
});

describe('--client-tools', () => {
  it('adds the tools to the run catalog (tools list)', async () => {
    const { code, stdout } = await cli(['tools', 'list', '--client-tools', 'client-tools.json', '--json'], cwd);
    expect(code).toBe(0);
    const listed = (JSON.parse(stdout) as { tools: { id: string; source: string }[] }).tools.filter(
      (tool) => tool.source === 'client',
    );
    expect(listed.map((tool) => tool.id)).toEqual(['client:client:lookup_order', 'client:client:refund_payment']);
  });

  it('makes them searchable and describable', async () => {
    const search = await cli(
      ['tools', 'search', 'customer order', '--client-tools', 'client-tools.json', '--json'],
      cwd,
    );
    expect((JSON.parse(search.stdout) as { hits: { id: string }[] }).hits[0]?.id).toBe('client:client:lookup_order');
    const described = await cli(
      ['tools', 'describe', 'client:client:refund_payment', '--client-tools', 'client-tools.json', '--json'],
      cwd,
    );
    expect(JSON.parse(described.stdout)).toMatchObject({
      source: 'client',
      inputSchema: { properties: { amount: { type: 'number' } } },
    });
  });

  it('shows them in the exposure', async () => {
    const { stdout } = await cli(
      ['exposure', '--mode', 'direct', '--client-tools', 'client-tools.json', '--json'],
      cwd,
    );
    expect(
      (JSON.parse(stdout) as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name),
    ).toContain('lookup_order');
  });

  it('a call to a client tool comes back pending (the client runs it): exit 1', async () => {
    const { code, stdout } = await cli(
      ['tools', 'call', 'lookup_order', '--args', '{"order":"42"}', '--client-tools', 'client-tools.json', '--json'],
      cwd,
    );
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'pending', name: 'lookup_order' });
  });

  it('exits 1 with CLIENT_TOOL_INVALID for a malformed entry', async () => {
    const { code, stderr } = await cli(['tools', 'list', '--client-tools', 'bad-tools.json'], cwd);
    expect(code).toBe(1);
    expect(stderr).toContain('CLIENT_TOOL_INVALID');
  });

  it('exits 1 for a missing file', async () => {
    expect((await cli(['tools', 'list', '--client-tools', 'nope.json'], cwd)).code).toBe(1);
  });
});
