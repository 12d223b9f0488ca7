/** Issue #46 item 1: an agent the config sandboxes (`agents.list[].sandbox.mode`) is sandboxed without `--sandboxed`. */
import { describe, expect, it } from 'vitest';
import { cli, folder } from './helpers.js';

const cwd = folder({
  'tool-search.json':
    '{ plugins: { "fake-catalog": { tools: 0, core: true } }, tools: { sandbox: { tools: { allow: ["read"] } } }, agents: { list: [{ id: "main" }, { id: "jailed", sandbox: { mode: "all" } }] } }',
});
const names = async (...args: string[]) => {
  const { code, stdout, stderr } = await cli(['tools', 'list', '--json', ...args], cwd);
  expect(code, stderr).toBe(0);
  return (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
};

describe('agents.list[].sandbox.mode in the CLI', () => {
  it('applies tools.sandbox.tools to the sandboxed agent, as --sandboxed does; the other agent keeps its tools', async () => {
    expect(await names('--agent', 'jailed')).toEqual(['read']);
    expect(await names('--agent', 'main', '--sandboxed')).toEqual(['read']);
    expect(await names('--agent', 'main')).toContain('write');
  });
});
