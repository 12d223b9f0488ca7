/** Issue 41: every CLI command wrote a session log with nothing in it (a run start and end). */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, folder } from './helpers.js';

describe('session logs of CLI commands', () => {
  it('tools list, config check and exposure write no session log', async () => {
    const cwd = folder({
      'tool-search.json': '{ session: { logDir: "./logs" }, plugins: { "fake-catalog": { tools: 3 } } }',
    });
    for (const argv of [
      ['tools', 'list'],
      ['config', 'check'],
      ['exposure', '--mode', 'tools'],
      ['tools', 'search', 'read'],
    ])
      expect((await cli(argv, cwd)).code, argv.join(' ')).toBe(0);
    const logs = join(cwd, 'logs');
    expect(existsSync(logs) ? readdirSync(logs) : []).toEqual([]);
  });

  it('a command that calls a tool still writes its log', async () => {
    const cwd = folder({
      'tool-search.json': '{ session: { logDir: "./logs" }, plugins: { "fake-catalog": { tools: 3, core: true } } }',
    });
    const { code } = await cli(['tools', 'call', 'core:core:read', '--args', '{"path":"tool-search.json"}'], cwd);
    expect(code).toBe(0);
    expect(readdirSync(join(cwd, 'logs'))).toHaveLength(1);
  });
});
