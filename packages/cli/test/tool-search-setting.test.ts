import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { SEARCH_MODES } from '@tool-search/config';
import { runCli } from '../src/index.js';
import { cli, smallCatalog } from './helpers.js';

const overrides =
  'tools: { toolSearch: { mode: "code" }, byProvider: { anthropic: { toolSearch: { mode: "directory" } } } }, ' +
  'agents: { list: [{ id: "weak", tools: { toolSearch: { mode: "tools" } } }, { id: "local", tools: { toolSearch: false } }] }';

describe('per-agent and per-provider toolSearch', () => {
  it('exposure uses and names the setting that applied', async () => {
    const cwd = smallCatalog(3, overrides);
    const json = async (...args: string[]) =>
      JSON.parse((await cli(['exposure', '--json', ...args], cwd)).stdout) as { mode: string; setting: string[] };
    expect(await json()).toMatchObject({ mode: 'code', setting: ['tools.toolSearch'] });
    expect(await json('--provider', 'anthropic')).toMatchObject({
      mode: 'directory',
      setting: ['tools.toolSearch', 'tools.byProvider[anthropic].toolSearch'],
    });
    expect(await json('--agent', 'weak', '--provider', 'anthropic')).toMatchObject({
      mode: 'tools',
      setting: ['tools.toolSearch', 'tools.byProvider[anthropic].toolSearch', 'agents.list[0].tools.toolSearch'],
    });
    expect(await json('--agent', 'local')).toMatchObject({ mode: 'direct' });
    expect(await json('--agent', 'local', '--mode', 'tools')).toMatchObject({ mode: 'tools', setting: ['--mode'] });
    const text = await cli(['exposure', '--agent', 'weak'], cwd);
    expect(text.stdout).toContain('exposure mode tools (from tools.toolSearch → agents.list[0].tools.toolSearch)');
  });

  it('applies the override limits to the run (the tool_search schema the model sees)', async () => {
    const cwd = smallCatalog(
      3,
      'tools: { toolSearch: { mode: "tools", maxSearchLimit: 20 } }, agents: { list: [{ id: "small", tools: { toolSearch: { maxSearchLimit: 4, searchDefaultLimit: 2 } } }] }',
    );
    const limitOf = async (...args: string[]) => {
      const out = JSON.parse((await cli(['exposure', '--json', ...args], cwd)).stdout) as {
        tools: { function: { name: string; parameters: { properties: { limit: { maximum: number } } } } }[];
      };
      return out.tools.find((t) => t.function.name === 'tool_search')?.function.parameters.properties.limit.maximum;
    };
    expect(await limitOf()).toBe(20);
    expect(await limitOf('--agent', 'small')).toBe(4);
    expect(await limitOf('--agent', 'small', '--mode', 'directory')).toBe(4);
  });

  it("shows the operator's toolSearch.description on the search tool, the agent's for that agent, in every mode", async () => {
    const cwd = smallCatalog(
      3,
      'tools: { toolSearch: { mode: "tools", description: "Acme billing and tickets." } }, agents: { list: [{ id: "ops", tools: { toolSearch: { description: "Paging and runbooks." } } }] }',
    );
    const descriptionOf = async (...args: string[]) => {
      const out = JSON.parse((await cli(['exposure', '--json', ...args], cwd)).stdout) as {
        tools: { function: { name: string; description: string } }[];
      };
      return out.tools.find((t) => t.function.name.startsWith('tool_search'))?.function.description ?? '';
    };
    for (const mode of SEARCH_MODES) {
      expect((await descriptionOf('--mode', mode)).endsWith('\n\nAcme billing and tickets.'), mode).toBe(true);
      const ops = await descriptionOf('--agent', 'ops', '--mode', mode);
      expect(ops.endsWith('\n\nPaging and runbooks.'), mode).toBe(true);
      expect(ops).not.toContain('Acme');
    }
  });

  it('tools explain shows which setting applied', async () => {
    const cwd = smallCatalog(3, overrides);
    const { code, stdout } = await cli(['tools', 'explain', 'read', '--agent', 'local', '--json'], cwd);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      inCatalog: true,
      toolSearch: { mode: 'direct', sources: ['tools.toolSearch', 'agents.list[1].tools.toolSearch'] },
    });
    expect((await cli(['tools', 'explain', 'read', '--provider', 'anthropic'], cwd)).stdout).toContain(
      'exposure mode directory (from tools.toolSearch → tools.byProvider[anthropic].toolSearch)',
    );
  });

  it('the gateway picks the mode per run from the agent header', async () => {
    const controller = new AbortController();
    let stdout = '';
    let printed: (url: string) => void = () => {};
    const url = new Promise<string>((resolve) => (printed = resolve));
    const exit = runCli(['gateway', '--provider-mode', 'mock-openai'], {
      stdout: {
        write: (text: string) => (
          (stdout += text), /http:\/\/\S+\/v1/.test(stdout) && printed(/http:\/\/\S+\/v1/.exec(stdout)![0])
        ),
      },
      stderr: { write: () => true },
      cwd: smallCatalog(
        3,
        'tools: { toolSearch: { mode: "tools" } }, agents: { list: [{ id: "local", tools: { toolSearch: false } }] }',
      ),
      signal: controller.signal,
    });
    try {
      const client = new OpenAI({ baseURL: await url, apiKey: 'unused', maxRetries: 0 });
      const ask = (agent?: string) =>
        client.chat.completions.create(
          {
            model: 'm',
            messages: [{ role: 'user', content: 'tool search qa check target=read args={"path":"a.txt"}' }],
          },
          agent ? { headers: { 'x-agent-id': agent } } : {},
        ) as unknown as Promise<{ tool_search: { mode: string } }>;
      expect((await ask()).tool_search.mode).toBe('tools');
      expect((await ask('local')).tool_search.mode).toBe('direct');
    } finally {
      controller.abort();
      expect(await exit).toBe(0);
    }
  });

  it('serve mcp picks the mode and limits of the --agent setting', async () => {
    const cwd = smallCatalog(
      3,
      'tools: { toolSearch: { mode: "tools" } }, agents: { list: [{ id: "coder", tools: { toolSearch: { mode: "directory", maxSearchLimit: 4 } } }] }',
    );
    const listed = async (agent?: string) => {
      const controller = new AbortController();
      let out = '';
      let found: (url: string) => void = () => {};
      const url = new Promise<string>((resolve) => (found = resolve));
      const write = (text: string) => (
        (out += text), /http:\/\/\S+\/mcp/.test(out) && found(/http:\/\/\S+\/mcp/.exec(out)![0])
      );
      const exit = runCli(['serve', 'mcp', '--http', '0', ...(agent ? ['--agent', agent] : [])], {
        stdout: { write },
        stderr: { write },
        cwd,
        signal: controller.signal,
      });
      const client = new Client({ name: 'setting-test', version: '1.0.0' });
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(await url)));
        const tools = (await client.listTools()).tools;
        const search = tools.find((tool) => tool.name === 'tool_search')?.inputSchema as unknown as {
          properties: { limit: { maximum: number } };
        };
        return { mode: /mode (\w+)/.exec(out)?.[1], max: search.properties.limit.maximum };
      } finally {
        await client.close();
        controller.abort();
        expect(await exit).toBe(0);
      }
    };
    expect(await listed()).toEqual({ mode: 'tools', max: 20 });
    expect(await listed('coder')).toEqual({ mode: 'directory', max: 4 });
  });
});
