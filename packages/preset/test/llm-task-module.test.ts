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

  it('refuses options its schema does not allow, naming the module', async () => {
    await expect(createToolSearchKernel({ plugins: { '@tool-search/plugin-llm-task': { model: 'm' } } }, { baseDir: repo })).rejects.toMatchObject({ code: 'OPTIONS_INVALID', details: { module: '@tool-search/plugin-llm-task' } });
  });
});
