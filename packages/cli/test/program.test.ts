import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
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

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
if (!existsSync(bin)) console.warn(`skipping the built-binary tests: ${bin} is missing; run \`npm run build\` first`);

describe.skipIf(!existsSync(bin))('built binary', () => {
  it('prints the catalog as JSON', () => {
    const stdout = execFileSync(process.execPath, [bin, 'tools', 'list', '--json'], { cwd: folder(), encoding: 'utf8' });
    expect((JSON.parse(stdout) as { tools: unknown[] }).tools).toHaveLength(1025);
  });
});
