import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { COMMANDS } from '../src/index.js';
import { commandsFor } from '../src/program.js';
import { cli, folder } from './helpers.js';

describe('exit codes', () => {
  it('exits 2 for an unknown command', async () => {
    expect((await cli(['frobnicate'])).code).toBe(2);
  });

  it('exits 2 for an unknown flag', async () => {
    expect((await cli(['tools', 'list', '--jsno'])).code).toBe(2);
  });

  it('exits 0 for --help', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('tools');
  });

  it('exits 1 naming path and rule for an invalid config', async () => {
    const cwd = folder({ 'tool-search.json': '{ tools: { alow: ["read"] } }' });
    const { code, stderr } = await cli(['tools', 'list'], cwd);
    expect(code).toBe(1);
    expect(stderr).toContain('CONFIG_INVALID');
    expect(stderr).toContain('/tools/alow');
    expect(stderr).toContain('additionalProperties');
  });

  it('exits 1 when --config names a missing file', async () => {
    const { code, stderr } = await cli(['tools', 'list', '--config', 'missing.json']);
    expect(code).toBe(1);
    expect(stderr).toContain('CONFIG_UNREADABLE');
  });

  it('exits 1 for an unknown plugin id', async () => {
    const cwd = folder({ 'tool-search.json': '{ plugins: { "no-such-plugin": {} } }' });
    const { code, stderr } = await cli(['config', 'check'], cwd);
    expect(code).toBe(1);
    expect(stderr).toContain('/plugins/no-such-plugin');
  });
});

describe('lazy commands', () => {
  it('lists, for each file of a split group, exactly the subcommands that file registers', async () => {
    const io = { stdout: { write: () => true }, stderr: { write: () => true }, cwd: folder() };
    for (const entry of COMMANDS.filter((command) => command.subcommands)) {
      const program = new Command('tool-search');
      (await entry.load())(program, io);
      const group = program.commands.find((command) => command.name() === entry.name);
      expect(group?.commands.map((command) => command.name()).sort()).toEqual([...entry.subcommands!].sort());
    }
  });

  it('loads only the file of the named subcommand, and the whole group otherwise', () => {
    expect(commandsFor(['tools', 'list']).map((entry) => entry.subcommands)).toEqual([['list', 'explain']]);
    expect(commandsFor(['help', 'tools', 'search']).map((entry) => entry.subcommands)).toEqual([
      ['search', 'describe', 'call'],
    ]);
    expect(commandsFor(['tools', 'lst'])).toHaveLength(3);
    expect(commandsFor(['tools', '--help'])).toHaveLength(3);
  });

  it('still suggests a sibling subcommand of another file for a typo', async () => {
    const { code, stderr } = await cli(['tools', 'serch', 'x']);
    expect(code).toBe(2);
    expect(stderr).toContain('search');
  });
});

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
if (!existsSync(bin)) console.warn(`skipping the built-binary tests: ${bin} is missing; run \`npm run build\` first`);

describe.skipIf(!existsSync(bin))('built binary', () => {
  it('prints the catalog as JSON', () => {
    const stdout = execFileSync(process.execPath, [bin, 'tools', 'list', '--json'], {
      cwd: folder(),
      encoding: 'utf8',
    });
    expect((JSON.parse(stdout) as { tools: unknown[] }).tools).toHaveLength(1025);
  });
});
