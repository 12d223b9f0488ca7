import { describe, expect, it } from 'vitest';
import type { KernelPlugin } from '@tool-search/kernel';
import { cli, smallCatalog } from './helpers.js';

const seen: string[][] = [];
const extraPlugin: KernelPlugin = {
  name: 'test-greeter',
  apply() {},
  commands: {
    cliName: 'greeter',
    description: 'say hello',
    list: [
      {
        name: 'hello',
        description: 'print a greeting',
        run(argv, io) {
          seen.push([...argv]);
          io.stdout(`hello ${argv.join(' ')}\n`);
          return 0;
        },
      },
      { name: 'fail', description: 'exit 3', run: (_argv, io) => (io.stderr('nope\n'), 3) },
    ],
  },
};
const cwd = smallCatalog(1);

describe('plugin commands', () => {
  it('are listed by --help', async () => {
    const { code, stdout } = await cli(['--help'], cwd, { plugins: [extraPlugin] });
    expect(code).toBe(0);
    expect(stdout).toContain('greeter');
    expect(stdout).toContain('say hello');
  });

  it('run as tool-search <cliName> <command> [args...] with their argv', async () => {
    const { code, stdout } = await cli(['greeter', 'hello', 'world', '--loud'], cwd, { plugins: [extraPlugin] });
    expect(code).toBe(0);
    expect(stdout).toBe('hello world --loud\n');
    expect(seen.at(-1)).toEqual(['world', '--loud']);
  });

  it('pass their exit code through', async () => {
    const { code, stderr } = await cli(['greeter', 'fail'], cwd, { plugins: [extraPlugin] });
    expect(code).toBe(3);
    expect(stderr).toBe('nope\n');
  });

  it('list their subcommands with <cliName> --help', async () => {
    const { code, stdout } = await cli(['greeter', '--help'], cwd, { plugins: [extraPlugin] });
    expect(code).toBe(0);
    expect(stdout).toContain('print a greeting');
  });

  it('an unknown command is still exit 2', async () => {
    expect((await cli(['greeterz', 'hello'], cwd, { plugins: [extraPlugin] })).code).toBe(2);
  });

  it('built-in commands do not build a kernel for discovery', async () => {
    let applied = 0;
    const counting: KernelPlugin = { ...extraPlugin, name: 'counting', apply: () => void applied++ };
    await cli(['config', 'show'], cwd, { plugins: [counting] });
    expect(applied).toBe(0);
  });
});
