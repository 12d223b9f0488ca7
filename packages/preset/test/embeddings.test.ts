import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KernelPlugin, RunEvent } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createToolSearchKernel } from '@tool-search/preset';

let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(() => mock.close());

describe('tools.toolSearch.embeddings', () => {
  it('composes the embeddings plugin: tool_search ranks hybrid and says so in its search event', async () => {
    const events: RunEvent[] = [];
    const observer: KernelPlugin = {
      name: 'observer',
      apply: ({ hooks }) => hooks.runEvent.tap((event) => void events.push(event)),
    };
    const { kernel } = await createToolSearchKernel(
      {
        plugins: { 'fake-catalog': { tools: 30, core: true } },
        tools: { toolSearch: { mode: 'tools', embeddings: { baseURL: mock.url, model: 'mock-embedding' } } },
      },
      { plugins: [observer] },
    );
    const run = await kernel.createRun();
    const exposure = await run.exposure('tools');
    expect((await exposure.call('tool_search', { query: 'read a file' })).status).toBe('ok');
    expect(events.find((event) => event.type === 'search')).toMatchObject({ ranker: { id: 'bm25f+dense-rrf' } });
    expect(mock.requests.some((request) => request.path === '/v1/embeddings')).toBe(true);
    await kernel.close();
  });
});
