import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { cli, smallCatalog } from './helpers.js';

const overrides =
  'tools: { toolSearch: { mode: "code" }, byProvider: { anthropic: { toolSearch: { mode: "directory" } } } }, ' +
  'agents: { list: [{ id: "weak", tools: { toolSearch: { mode: "tools" } } }, { id: "local", tools: { toolSearch: false } }] }';

describe('per-agent and per-provider toolSearch', () => {
  it('exposure uses and names the setting that applied', async () => {
    const cwd = smallCatalog(3, overrides);
    const json = async (...args: string[]) => JSON.parse((await cli(['exposure', '--json', ...args], cwd)).stdout) as { mode: string; setting: string[] };
    expect(await json()).toMatchObject({ mode: 'code', setting: ['tools.toolSearch'] });
    expect(await json('--provider', 'anthropic')).toMatchObject({ mode: 'directory', setting: ['tools.toolSearch', 'tools.byProvider[anthropic].toolSearch'] });
    expect(await json('--agent', 'weak', '--provider', 'anthropic')).toMatchObject({ mode: 'tools', setting: ['tools.toolSearch', 'tools.byProvider[anthropic].toolSearch', 'agents.list[0].tools.toolSearch'] });
    expect(await json('--agent', 'local')).toMatchObject({ mode: 'direct' });
    expect(await json('--agent', 'local', '--mode', 'tools')).toMatchObject({ mode: 'tools', setting: ['--mode'] });
    const text = await cli(['exposure', '--agent', 'weak'], cwd);
    expect(text.stdout).toContain('exposure mode tools (from tools.toolSearch → agents.list[0].tools.toolSearch)');
  });

  it('tools explain shows which setting applied', async () => {
    const cwd = smallCatalog(3, overrides);
    const { code, stdout } = await cli(['tools', 'explain', 'read', '--agent', 'local', '--json'], cwd);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ inCatalog: true, toolSearch: { mode: 'direct', sources: ['tools.toolSearch', 'agents.list[1].tools.toolSearch'] } });
    expect((await cli(['tools', 'explain', 'read', '--provider', 'anthropic'], cwd)).stdout).toContain('exposure mode directory (from tools.toolSearch → tools.byProvider[anthropic].toolSearch)');
  });

  it('the gateway picks the mode per run from the agent header', async () => {
    const controller = new AbortController();
    let stdout = '';
    let printed: (url: string) => void = () => {};
    const url = new Promise<string>((resolve) => (printed = resolve));
    const exit = runCli(['gateway', '--provider-mode', 'mock-openai'], {
      stdout: { write: (text: string) => ((stdout += text), /http:\/\/\S+\/v1/.test(stdout) && printed(/http:\/\/\S+\/v1/.exec(stdout)![0])) },
      stderr: { write: () => true },
      cwd: smallCatalog(3, 'tools: { toolSearch: { mode: "tools" } }, agents: { list: [{ id: "local", tools: { toolSearch: false } }] }'),
      signal: controller.signal,
    });
    try {
      const client = new OpenAI({ baseURL: await url, apiKey: 'unused', maxRetries: 0 });
      const ask = (agent?: string) =>
        client.chat.completions.create(
          { model: 'm', messages: [{ role: 'user', content: 'tool search qa check target=read args={"path":"a.txt"}' }] },
          agent ? { headers: { 'x-agent-id': agent } } : {},
        ) as unknown as Promise<{ tool_search: { mode: string } }>;
      expect((await ask()).tool_search.mode).toBe('tools');
      expect((await ask('local')).tool_search.mode).toBe('direct');
    } finally {
      controller.abort();
      expect(await exit).toBe(0);
    }
  });
});
