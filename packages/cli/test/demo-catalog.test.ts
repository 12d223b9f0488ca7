/** Issue 13: the built-in demo catalog is used only when nothing else is configured, and every command says so once. */
import { describe, expect, it } from 'vitest';
import type { KernelPlugin } from '@tool-search/kernel';
import { cli, folder } from './helpers.js';

const NOTICE = 'using the built-in demo catalog (25 fake core tools + 1,000 fake plugin tools); see README';

const own: KernelPlugin = {
  name: 'embedder-source',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) =>
      sink.add({
        name: 'own_tool',
        source: 'plugin',
        owner: 'embedder',
        description: 'mine',
        inputSchema: { type: 'object' },
        execute: () => ({ content: [] }),
      }),
    ),
};

const count = (stdout: string) => (JSON.parse(stdout) as { tools: unknown[] }).tools.length;

describe('the demo catalog notice', () => {
  it('with nothing configured, the demo catalog is used and stderr says so once; stdout stays JSON', async () => {
    const { code, stdout, stderr } = await cli(['tools', 'list', '--json']);
    expect(code).toBe(0);
    expect(count(stdout)).toBe(1025);
    expect(stderr.split(NOTICE)).toHaveLength(2);
  });

  it('is said once by a command that builds several kernels (config check with agents)', async () => {
    const { code, stderr } = await cli(
      ['config', 'check'],
      folder({ 'tool-search.json': '{ agents: { list: [{ id: "a" }, { id: "b" }] } }' }),
    );
    expect(code).toBe(0);
    expect(stderr.split(NOTICE)).toHaveLength(2);
  });

  it('plugins: {} means no tools and no notice', async () => {
    const { code, stdout, stderr } = await cli(
      ['tools', 'list', '--json'],
      folder({ 'tool-search.json': '{ plugins: {} }' }),
    );
    expect(code).toBe(0);
    expect(count(stdout)).toBe(0);
    expect(stderr).not.toContain(NOTICE);
  });

  it('an embedder that passes plugins gets only its own tools', async () => {
    const { stdout, stderr } = await cli(['tools', 'list', '--json'], folder(), { plugins: [own] });
    expect((JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(['own_tool']);
    expect(stderr).not.toContain(NOTICE);
  });

  it('a named fake-catalog is not the default: no notice', async () => {
    const { stderr } = await cli(
      ['tools', 'list', '--json'],
      folder({ 'tool-search.json': '{ plugins: { "fake-catalog": { tools: 2 } } }' }),
    );
    expect(stderr).not.toContain(NOTICE);
  });
});
