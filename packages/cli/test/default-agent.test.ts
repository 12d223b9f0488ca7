/** "The default agent id main is always known": `--agent main` with an agents.list that does not name it uses the global policy. */
import { describe, expect, it } from 'vitest';
import { cli, folder } from './helpers.js';

const cwd = folder({
  'tool-search.json':
    '{ plugins: { "fake-catalog": { tools: 0, core: true } }, tools: { profile: "coding" }, agents: { list: [{ id: "support", tools: { profile: "minimal" } }] } }',
});
const names = (stdout: string) => (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);

describe('--agent main', () => {
  it('uses the global policy when agents.list does not name main', async () => {
    const main = await cli(['tools', 'list', '--json', '--agent', 'main'], cwd);
    expect(main.code, main.stderr).toBe(0);
    expect(names(main.stdout)).toEqual(names((await cli(['tools', 'list', '--json'], cwd)).stdout));
    expect(names((await cli(['tools', 'list', '--json', '--agent', 'support'], cwd)).stdout)).toEqual([
      'session_status',
    ]);
  });

  it('other unknown ids stay AGENT_UNKNOWN', async () => {
    const { code, stderr } = await cli(['tools', 'list', '--agent', 'mian'], cwd);
    expect(code).not.toBe(0);
    expect(stderr).toContain('AGENT_UNKNOWN');
  });
});
