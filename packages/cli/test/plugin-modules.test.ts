import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { runCli } from '../src/index.js';
import { cli, folder } from './helpers.js';

// Issue 16: a plugin module named in the config (the repo's example plugin, by path) works in every front end.
const here = dirname(fileURLToPath(import.meta.url));
const cwd = join(here, 'fixtures/plugin-module');
const pluginFile = join(here, '../../example-plugin/dist/index.js');
const built = existsSync(pluginFile);
if (!built) console.warn(`skipping plugin-module tests: ${pluginFile} is missing; run \`npm run build\` first`);
const convert = { value: 1, from: 'mi', to: 'km' };

/** Runs a long-running CLI command in-process until `ready` matches its output; `stop()` aborts it. */
async function start(argv: string[], ready: RegExp) {
  const controller = new AbortController();
  let out = '';
  let found: (match: string) => void = () => {};
  const seen = new Promise<string>((resolve) => (found = resolve));
  const write = (text: string) => {
    out += text;
    const match = ready.exec(out);
    if (match) found(match[0]);
  };
  const exit = runCli(argv, { stdout: { write }, stderr: { write }, cwd, signal: controller.signal });
  const first = await Promise.race([seen, exit.then((code) => `exited ${code}: ${out}`)]);
  if (!ready.test(first)) throw new Error(first);
  return { url: first, stop: () => (controller.abort(), exit) };
}

describe.skipIf(!built)('a plugin module loaded by path from the config', () => {
  it('tools list shows its tool and which module was loaded from where', async () => {
    const json = await cli(['tools', 'list', '--json'], cwd);
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout) as {
      tools: { id: string }[];
      modules: { id: string; path: string; name: string }[];
    };
    expect(listed.tools.map((tool) => tool.id)).toEqual(['plugin:units:convert_length']);
    expect(listed.modules).toMatchObject([
      { id: '../../../../example-plugin/dist/index.js', name: '@tool-search/example-plugin', path: pluginFile },
    ]);
    const text = await cli(['tools', 'list'], cwd);
    expect(text.stdout).toContain(`loaded from ${pluginFile}`);
  });

  it('config check loads it and says from where; tools call runs it with its options', async () => {
    const check = await cli(['config', 'check', '--json'], cwd);
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, modules: [{ path: pluginFile }] });
    const call = await cli(['tools', 'call', 'convert_length', '--args', JSON.stringify(convert), '--json'], cwd);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout)).toMatchObject({ status: 'ok', result: { content: [{ text: '1 mi = 1.6 km' }] } });
  });

  it('fails the command with the module and the reason when its options are invalid', async () => {
    const bad = folder({
      'tool-search.json': JSON.stringify({ plugins: { [pluginFile]: { precision: 99, colour: 'red' } } }),
    });
    const result = await cli(['tools', 'list', '--json'], bad);
    expect(result.code).toBe(1);
    const { error } = JSON.parse(result.stdout) as {
      error: { code: string; details: { module: string; errors: unknown[] } };
    };
    expect(error).toMatchObject({ code: ErrorCode.OPTIONS_INVALID, details: { module: pluginFile } });
    expect(error.details.errors).toHaveLength(2);
  });

  it('answers through the gateway, and a request cannot make the gateway load a module', async () => {
    const marker = join(folder(), 'loaded');
    const evil = join(
      folder({
        'evil.mjs': `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'x'); export const kernelRange = '*'; export default () => ({ name: 'evil', apply() {} });`,
      }),
      'evil.mjs',
    );
    const gateway = await start(['gateway', '--provider-mode', 'mock-openai', '--port', '0'], /http:\/\/\S+\/v1/);
    try {
      const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 });
      const content = `tool search qa check target=convert_length args=${JSON.stringify(convert)}`;
      const completion = await client.chat.completions.create({
        model: 'mock-model',
        messages: [{ role: 'user', content }],
      });
      expect(completion.choices[0]?.message.content).toContain('1 mi = 1.6 km');
      const body = {
        model: 'mock-model',
        messages: [{ role: 'user', content: 'hi' }],
        plugins: { [evil]: {} },
        tool_search: { plugins: { [evil]: {} } },
      };
      await fetch(`${gateway.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(existsSync(marker)).toBe(false);
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });

  it('serve mcp exposes it to an MCP SDK client through the search tools', async () => {
    const server = await start(['serve', 'mcp', '--http', '0'], /http:\/\/\S+\/mcp/);
    const client = new Client({ name: 'plugin-module-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('tool_search');
      const search = await client.callTool({
        name: 'tool_search',
        arguments: { query: 'convert a length from miles to kilometres' },
      });
      expect(JSON.stringify(search.content)).toContain('plugin:units:convert_length');
      const called = await client.callTool({
        name: 'tool_call',
        arguments: { id: 'plugin:units:convert_length', args: convert },
      });
      expect(JSON.stringify(called.content)).toContain('1 mi = 1.6 km');
    } finally {
      await client.close();
      expect(await server.stop()).toBe(0);
    }
  });
});

// Loading code is the operator's decision: a plain config with no `plugins` never loads a module.
it('writes nothing about modules when the config loads none', async () => {
  const result = await cli(
    ['tools', 'list', '--json'],
    folder({ 'tool-search.json': '{ plugins: { "fake-catalog": { tools: 1, core: false } } }' }),
  );
  expect(JSON.parse(result.stdout)).toMatchObject({ modules: [] });
});
