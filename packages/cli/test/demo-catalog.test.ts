/**
 * Issue 13: the built-in demo catalog is used only when nothing else is configured, and every command says so once.
 * Issue 46 item 8: its tools are marked as fakes (`tools list`), a fake's result says it did nothing, and a newcomer's
 * first command says how to get the real tools.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { KernelPlugin } from '@tool-search/kernel';
import { cli, folder } from './helpers.js';

const NOTICE = 'using the built-in demo catalog (25 fake core tools + 1,000 fake plugin tools); see README';

const ownSource: KernelPlugin = {
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
    const { stdout, stderr } = await cli(['tools', 'list', '--json'], folder(), { plugins: [ownSource] });
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

/** The line after the notice: the tools are fakes, and the command that gives the real ones. */
const HOW_TO = "tool-search config set plugins.core '{}'";
const INVENTORY = ['browser', 'gateway', 'canvas', 'nodes', 'message'];

describe('the demo catalog says what its tools are (issue 46 item 8)', () => {
  it('tools list --json marks every demo tool demo: true; a real tool has no mark', async () => {
    const demo = JSON.parse((await cli(['tools', 'list', '--json'])).stdout) as {
      tools: { name: string; demo?: boolean }[];
    };
    expect(demo.tools.every((tool) => tool.demo === true)).toBe(true);
    expect(INVENTORY.filter((name) => demo.tools.some((tool) => tool.name === name))).toEqual(INVENTORY);
    const own = JSON.parse((await cli(['tools', 'list', '--json'], folder(), { plugins: [ownSource] })).stdout) as {
      tools: Record<string, unknown>[];
    };
    expect(own.tools).toEqual([
      { id: 'plugin:embedder:own_tool', name: 'own_tool', source: 'plugin', owner: 'embedder', catalogMode: 'catalog' },
    ]);
  });

  it('the tools list table has a DEMO column saying fake, and counts the fakes', async () => {
    const { stdout } = await cli(['tools', 'list']);
    expect(stdout).toMatch(/^NAME\s+SOURCE\s+OWNER\s+MODE\s+DEMO\n/);
    expect(stdout).toMatch(/^gateway\s+core\s+core\s+catalog\s+fake$/m);
    expect(stdout).toContain('1025 of them are fakes of the demo catalog: they do nothing');
    const real = await cli(['tools', 'list'], folder(), { plugins: [ownSource] });
    expect(real.stdout).not.toContain('DEMO');
    expect(real.stdout).not.toContain('fakes');
  });

  it('the notice says the tools are fakes and how to get the real ones; the command it names works', async () => {
    const { stderr } = await cli(['tools', 'list', '--json']);
    expect(stderr).toContain(NOTICE);
    expect(stderr).toContain('fakes that do nothing');
    expect(stderr.split(HOW_TO)).toHaveLength(2);
    const dir = folder();
    expect((await cli(['config', 'set', 'plugins.core', '{}'], dir)).code).toBe(0);
    const after = await cli(['tools', 'list', '--json'], dir);
    expect(after.stderr).not.toContain(NOTICE);
    const tools = (JSON.parse(after.stdout) as { tools: { name: string; demo?: boolean }[] }).tools;
    expect(tools.map((tool) => tool.name)).toContain('read');
    expect(tools.some((tool) => tool.demo)).toBe(false);
  });

  it('a fake called from the CLI says in its result that it did nothing', async () => {
    const { code, stdout } = await cli(['tools', 'call', 'core:core:gateway', '--args', '{"action":"restart"}']);
    expect(code).toBe(0);
    expect(stdout).toContain('FAKE_TOOL_OK gateway');
    expect(stdout).toContain('gateway is a fake tool');
    expect(stdout).toContain('did nothing');
  });

  it('the top-level help says so where there is no tool-search.json, not where there is one', async () => {
    const bare = await cli(['--help']);
    expect(bare.stdout).toContain('No ./tool-search.json here, so commands use the built-in demo catalog');
    expect(bare.stdout).toContain(HOW_TO);
    expect(bare.stderr).toBe('');
    const configured = await cli(['--help'], folder({ 'tool-search.json': '{ plugins: {} }' }));
    expect(configured.stdout).not.toContain('demo catalog');
  });
});

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
if (!existsSync(bin))
  console.warn(`skipping the newcomer process test: ${bin} is missing; run \`npm run build\` first`);

describe.skipIf(!existsSync(bin))('a newcomer runs the built CLI in an empty folder', () => {
  it('tool-search, then tool-search tools list: told it is the demo catalog, that its tools are fakes, and how to get the real ones', () => {
    const cwd = folder();
    const help = spawnSync(process.execPath, [bin], { cwd, encoding: 'utf8' });
    expect(help.stdout + help.stderr).toContain(HOW_TO);
    const list = spawnSync(process.execPath, [bin, 'tools', 'list'], { cwd, encoding: 'utf8' });
    expect(list.status).toBe(0);
    expect(list.stderr).toContain(NOTICE);
    expect(list.stderr).toContain(HOW_TO);
    expect(list.stdout).toMatch(/^message\s+core\s+core\s+catalog\s+fake$/m);
    const call = execFileSync(process.execPath, [bin, 'tools', 'call', 'browser', '--args', '{"action":"status"}'], {
      cwd,
      encoding: 'utf8',
    });
    expect(call).toContain('FAKE_TOOL_OK browser');
    expect(call).toContain('browser is a fake tool');
  });
});
