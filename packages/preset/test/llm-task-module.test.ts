/** The optional `llm-task` plugin is its own package, loaded from the config by name like a third-party plugin. */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const built = existsSync(join(repo, 'packages', 'plugin-llm-task', 'dist', 'index.js'));
if (!built) console.log('skipping llm-task-module.test.ts: needs the built @tool-search/plugin-llm-task (npx tsc -b packages/plugin-llm-task/tsconfig.build.json)');

let kernel: Kernel | undefined;
const closers: (() => void)[] = [];
afterEach(async () => {
  await kernel?.close();
  kernel = undefined;
  for (const close of closers.splice(0)) close();
});

describe.skipIf(!built)('plugins: { "@tool-search/plugin-llm-task": … }', () => {
  it('loads llm-task by its package name and answers through the provider it is configured with (Chat Completions on loopback)', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: '{"n":3}' }, finish_reason: 'stop', logprobs: null }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const loaded = await createToolSearchKernel({ plugins: { '@tool-search/plugin-llm-task': { baseURL, model: 'm', apiKey: 'k' } } }, { baseDir: repo });
    kernel = loaded.kernel;
    const run = await kernel.createRun();
    expect(run.tool('llm-task')?.id).toBe('plugin:llm-task:llm-task');
    const outcome = await run.call('llm-task', { prompt: 'count', input: [1, 2, 3], schema: { type: 'object', required: ['n'] } });
    expect(outcome.status === 'ok' && outcome.result.structuredContent).toMatchObject({ json: { n: 3 }, attempts: 1 });
  });

  it('with no options of its own it answers through the config\'s provider (one provider, configured once)', async () => {
    const seen: { model?: string; authorization?: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ model: (JSON.parse(body) as { model?: string }).model, authorization: req.headers.authorization });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 0, model: 'main', choices: [{ index: 0, message: { role: 'assistant', content: '{"ok":true}' }, finish_reason: 'stop', logprobs: null }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const loaded = await createToolSearchKernel({ provider: { baseURL, model: 'main-model', apiKey: 'sk-main' }, plugins: { '@tool-search/plugin-llm-task': {} } }, { baseDir: repo });
    kernel = loaded.kernel;
    const outcome = await (await kernel.createRun()).call('llm-task', { prompt: 'ok?', input: {} });
    expect(outcome.status).toBe('ok');
    expect(seen).toEqual([{ model: 'main-model', authorization: 'Bearer sk-main' }]);
  });

  it('refuses options its schema does not allow, naming the module', async () => {
    await expect(createToolSearchKernel({ plugins: { '@tool-search/plugin-llm-task': { model: 1 } } }, { baseDir: repo })).rejects.toMatchObject({ code: 'OPTIONS_INVALID', details: { module: '@tool-search/plugin-llm-task' } });
  });

  it('without a provider of its own or an OpenAI-compatible one in the config, loading says what to set', async () => {
    await expect(createToolSearchKernel({ plugins: { '@tool-search/plugin-llm-task': {} } }, { baseDir: repo })).rejects.toThrow(/no provider is configured; set its own baseURL and model/);
    await expect(
      createToolSearchKernel({ provider: { kind: 'anthropic', model: 'claude' }, plugins: { '@tool-search/plugin-llm-task': {} } } as never, { baseDir: repo }),
    ).rejects.toThrow(/kind "anthropic"/);
  });
});
