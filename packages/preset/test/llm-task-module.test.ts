/** The optional `llm-task` plugin is its own package, loaded from the config by name like a third-party plugin. */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kernel } from '@tool-search/kernel';
import { startMockAnthropic } from '@tool-search/mock-anthropic';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { createToolSearchKernel } from '@tool-search/preset';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const built = existsSync(join(repo, 'packages', 'plugin-llm-task', 'dist', 'index.js'));
if (!built)
  console.log(
    'skipping llm-task-module.test.ts: needs the built @tool-search/plugin-llm-task (npx tsc -b packages/plugin-llm-task/tsconfig.build.json)',
  );

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
        res.end(
          JSON.stringify({
            id: 'c1',
            object: 'chat.completion',
            created: 0,
            model: 'm',
            choices: [
              { index: 0, message: { role: 'assistant', content: '{"n":3}' }, finish_reason: 'stop', logprobs: null },
            ],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const loaded = await createToolSearchKernel(
      { plugins: { '@tool-search/plugin-llm-task': { baseURL, model: 'm', apiKey: 'k' } } },
      { baseDir: repo },
    );
    kernel = loaded.kernel;
    const run = await kernel.createRun();
    expect(run.tool('llm-task')?.id).toBe('plugin:llm-task:llm-task');
    const outcome = await run.call('llm-task', {
      prompt: 'count',
      input: [1, 2, 3],
      schema: { type: 'object', required: ['n'] },
    });
    expect(outcome.status === 'ok' && outcome.result.structuredContent).toMatchObject({ json: { n: 3 }, attempts: 1 });
  });

  it("with no options of its own it answers through the config's provider (it opts in with wants: ['provider'])", async () => {
    const mock = await startMockOpenAI();
    closers.push(() => void mock.close());
    process.env.LLM_TASK_TEST_KEY = 'sk-deployment';
    const loaded = await createToolSearchKernel(
      {
        provider: { baseURL: mock.url, model: 'deployment-model', apiKeyEnv: 'LLM_TASK_TEST_KEY' },
        plugins: { '@tool-search/plugin-llm-task': {} },
      },
      { baseDir: repo },
    );
    kernel = loaded.kernel;
    try {
      const outcome = await (await kernel.createRun()).call('llm-task', {
        prompt: 'tool search qa always say {"ok":true}',
        input: {},
        schema: { type: 'object', required: ['ok'] },
      });
      expect(outcome.status === 'ok' && outcome.result.structuredContent).toMatchObject({
        json: { ok: true },
        model: 'deployment-model',
        attempts: 1,
      });
    } finally {
      delete process.env.LLM_TASK_TEST_KEY;
    }
    const chats = mock.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(chats).toHaveLength(1);
    expect((chats[0]!.body as { model: string }).model).toBe('deployment-model');
    expect(chats[0]!.headers.authorization).toBe('Bearer sk-deployment');
  });

  it("its own baseURL / model / apiKey win over the config's provider", async () => {
    const deployment = await startMockOpenAI();
    const own = await startMockOpenAI();
    closers.push(
      () => void deployment.close(),
      () => void own.close(),
    );
    const loaded = await createToolSearchKernel(
      {
        provider: { baseURL: deployment.url, model: 'deployment-model', apiKey: 'sk-deployment' },
        plugins: { '@tool-search/plugin-llm-task': { baseURL: own.url, model: 'own-model', apiKey: 'sk-own' } },
      },
      { baseDir: repo },
    );
    kernel = loaded.kernel;
    const outcome = await (await kernel.createRun()).call('llm-task', {
      prompt: 'tool search qa always say [1,2]',
      input: null,
    });
    expect(outcome.status === 'ok' && outcome.result.structuredContent).toMatchObject({
      json: [1, 2],
      model: 'own-model',
    });
    expect(deployment.requests).toHaveLength(0);
    expect(
      own.requests.map((request) => [(request.body as { model: string }).model, request.headers.authorization]),
    ).toEqual([['own-model', 'Bearer sk-own']]);
  });

  it('refuses options its schema does not allow, naming the module', async () => {
    await expect(
      createToolSearchKernel({ plugins: { '@tool-search/plugin-llm-task': { model: 1 } } }, { baseDir: repo }),
    ).rejects.toMatchObject({ code: 'OPTIONS_INVALID', details: { module: '@tool-search/plugin-llm-task' } });
  });

  it('without a provider of its own or in the config, loading says what to set', async () => {
    await expect(
      createToolSearchKernel({ plugins: { '@tool-search/plugin-llm-task': {} } }, { baseDir: repo }),
    ).rejects.toMatchObject({
      code: 'PLUGIN_LOAD_FAILED',
      cause: { code: 'OPTIONS_INVALID', details: { missing: ['baseURL', 'model'] } },
    });
  });

  it('an Anthropic provider in the config answers too (Messages API on loopback)', async () => {
    const mock = await startMockAnthropic();
    closers.push(() => void mock.close());
    const loaded = await createToolSearchKernel(
      {
        provider: { kind: 'anthropic', baseURL: mock.url, model: 'claude-main', apiKey: 'sk-ant' },
        plugins: { '@tool-search/plugin-llm-task': {} },
      },
      { baseDir: repo },
    );
    kernel = loaded.kernel;
    const outcome = await (await kernel.createRun()).call('llm-task', {
      prompt: 'tool search qa always say {"ok":1}',
      input: {},
    });
    expect(outcome.status === 'ok' && outcome.result.structuredContent).toMatchObject({
      json: { ok: 1 },
      model: 'claude-main',
    });
    expect(mock.requests.at(-1)).toMatchObject({ path: '/v1/messages', body: { model: 'claude-main' } });
  });
});
