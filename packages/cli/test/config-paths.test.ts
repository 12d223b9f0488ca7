import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, folder } from './helpers.js';

describe("relative paths in the config mean the config file's folder", () => {
  it('writes session.logDir logs next to the config, not in the working folder', async () => {
    const cwd = folder();
    mkdirSync(join(cwd, 'conf'));
    writeFileSync(
      join(cwd, 'conf', 'tool-search.json'),
      '{ plugins: { "fake-catalog": { tools: 2, core: true } }, session: { logDir: "logs" } }',
    );
    const { code } = await cli(
      ['tools', 'call', 'read', '--args', '{"path":"a"}', '--config', 'conf/tool-search.json', '--json'],
      cwd,
    );
    expect(code).toBe(0);
    expect(readdirSync(join(cwd, 'conf', 'logs')).some((file) => file.endsWith('.jsonl'))).toBe(true);
    expect(existsSync(join(cwd, 'logs'))).toBe(false);
  });
});
