/**
 * Hybrid search through a real kernel, the official `openai` client and the
 * mock's `/v1/embeddings` over HTTP: fused ranking, batching at index time,
 * the disk cache keyed by model and content, and the lexical fallback with a
 * diagnostic when the embedder fails or is slow.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type KernelPlugin, type RunEvent, type ToolDefinition } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { indexForRun, LEXICAL_RANKER } from '@tool-search/search';
import {
  createDenseIndex,
  embeddingsPlugin,
  parseEmbeddingsOptions,
  reciprocalRankFusion,
} from '@tool-search/plugin-embeddings';
import { EmbeddingsErrors } from '../src/errors.js';

const tool = (name: string, description: string, owner = 'files'): ToolDefinition => ({
  name,
  source: 'mcp',
  owner,
  description,
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
});
const TOOLS: ToolDefinition[] = [
  tool('read_file', 'Read the complete contents of a file from the file system.'),
  tool('write_file', 'Create a new file or overwrite an existing file.'),
  tool('search_issues', 'Search issues and pull requests across repositories.', 'github'),
  tool('create_issue', 'Open a new issue in a repository.', 'github'),
  tool('send_message', 'Send a message to a channel.', 'slack'),
  ...Array.from({ length: 7 }, (_, i) => tool(`report_${i}`, `Quarterly report number ${i}.`, 'reports')),
];
const source = (tools: readonly ToolDefinition[]): KernelPlugin => ({
  name: 'catalog',
  apply: ({ hooks }) => hooks.listTools.tap((sink) => sink.add(tools)),
});

let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(() => mock.close());

const embeddingCalls = (server: MockOpenAI) => server.requests.filter((request) => request.path === '/v1/embeddings');

async function hybridRun(options: Parameters<typeof embeddingsPlugin>[0], tools = TOOLS) {
  const events: RunEvent[] = [];
  const observer: KernelPlugin = {
    name: 'observer',
    apply: ({ hooks }) => hooks.runEvent.tap((event) => void events.push(event)),
  };
  const run = await createKernel({ plugins: [source(tools), observer, embeddingsPlugin(options)] }).createRun();
  return { run, events, index: indexForRun(run) };
}

describe('embeddingsPlugin', () => {
  it('fuses dense and lexical rankings: a misspelled request still finds its tool, ranked by the fused ranker', async () => {
    const { index } = await hybridRun({ baseURL: mock.url, model: 'mock-embedding' });
    const lexical = index.search('pls serch isues');
    expect(lexical.weak).toBe(true);
    const { result, ranker } = await index.searchRanked('pls serch isues', { limit: 3 });
    expect(ranker).toEqual({ id: 'bm25f+dense-rrf', version: `${LEXICAL_RANKER.version}+mock-embedding` });
    expect(result.hits[0]!.id).toBe('mcp:github:search_issues');
  });

  it('embeds the catalog in batches of batchSize at run start, and each query once', async () => {
    const server = await startMockOpenAI();
    try {
      const { index } = await hybridRun({ baseURL: server.url, model: 'batch-model', batchSize: 5 });
      await index.searchRanked('read a file');
      await index.searchRanked('read a file');
      const batches = embeddingCalls(server).map((request) => (request.body as { input: string[] }).input.length);
      expect(batches).toEqual([5, 5, 2, 1]);
    } finally {
      await server.close();
    }
  });

  it('caches vectors on disk by model and content: a new process re-embeds only a changed tool', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'embeddings-cache-'));
    const server = await startMockOpenAI();
    try {
      const options = parseEmbeddingsOptions({ baseURL: server.url, model: 'disk-model', cacheDir });
      const descriptors = (await createKernel({ plugins: [source(TOOLS)] }).createRun()).catalog;
      await createDenseIndex(options).prepare(descriptors);
      const first = embeddingCalls(server).length;
      expect(first).toBeGreaterThan(0);
      await createDenseIndex(options).prepare(descriptors);
      expect(embeddingCalls(server).length).toBe(first);
      const changed = descriptors.map((d) =>
        d.name === 'read_file' ? { ...d, description: 'Read a file, changed.' } : d,
      );
      await createDenseIndex(options).prepare(changed);
      expect(
        embeddingCalls(server)
          .slice(first)
          .map((request) => (request.body as { input: string[] }).input.length),
      ).toEqual([1]);
      await createDenseIndex({ ...options, model: 'other-model' }).prepare(descriptors);
      expect(embeddingCalls(server).length).toBeGreaterThan(first + 1);
    } finally {
      await server.close();
    }
  });

  it('falls back to the lexical ranking with EMBEDDINGS_UNAVAILABLE when the endpoint fails', async () => {
    const failing = await startMockOpenAI({ embeddings: { failStatus: 503 } });
    try {
      const { index, events } = await hybridRun({ baseURL: failing.url, model: 'm' });
      const ranked = await index.searchRanked('read a file');
      expect(ranked.ranker).toBe(LEXICAL_RANKER);
      expect(ranked.result).toEqual(index.search('read a file'));
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'diagnostic',
          diagnostic: expect.objectContaining({ code: EmbeddingsErrors.EMBEDDINGS_UNAVAILABLE }),
        }),
      );
    } finally {
      await failing.close();
    }
  });

  it('falls back when the endpoint is slower than timeoutMs, and when nothing listens', async () => {
    const slow = await startMockOpenAI({ embeddings: { delayMs: 3000 } });
    try {
      const { index, events } = await hybridRun({ baseURL: slow.url, model: 'm', timeoutMs: 100, indexWaitMs: 200 });
      expect((await index.searchRanked('read a file')).ranker).toBe(LEXICAL_RANKER);
      expect(
        events.some(
          (event) => event.type === 'diagnostic' && event.diagnostic.code === EmbeddingsErrors.EMBEDDINGS_UNAVAILABLE,
        ),
      ).toBe(true);
    } finally {
      await slow.close();
    }
    const { index } = await hybridRun({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 500 });
    expect((await index.searchRanked('read a file')).result).toEqual(index.search('read a file'));
  });

  it('refuses bad options with OPTIONS_INVALID naming the path', () => {
    expect(() => embeddingsPlugin({ baseURL: 'ftp://x', model: 'm' })).toThrow(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID, path: 'baseURL' }),
    );
    expect(() => embeddingsPlugin({ baseURL: 'http://x', model: '' })).toThrow(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID, path: 'model' }),
    );
    expect(() => embeddingsPlugin({ baseURL: 'http://x', model: 'm', fusion: 'max' } as never)).toThrow(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID }),
    );
  });
});

describe('reciprocalRankFusion', () => {
  it('sums weight / (k + rank) over the lists', () => {
    expect(
      reciprocalRankFusion(
        [
          ['a', 'b', 'c'],
          ['b', 'd'],
        ],
        [1, 1],
        60,
      ),
    ).toEqual(['b', 'a', 'd', 'c']);
    expect(
      reciprocalRankFusion(
        [
          ['a', 'b'],
          ['b', 'a'],
        ],
        [1, 2],
        60,
      ),
    ).toEqual(['b', 'a']);
  });
});
