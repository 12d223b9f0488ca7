/**
 * `tool-search eval --from-logs DIR`: the searches of real session logs that a
 * call followed become the eval set (the called tool is relevant), scored on
 * the live catalog like `--queries`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKernel, type KernelPlugin } from '@tool-search/kernel';
import { telemetryPlugin } from '@tool-search/telemetry';
import { cli, smallCatalog } from './helpers.js';

const tools: KernelPlugin = {
  name: 'logged-tools',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) =>
      sink.add(
        ['read', 'exec'].map((name) => ({
          name,
          source: 'core' as const,
          owner: 'core',
          description: name,
          inputSchema: { type: 'object' },
          execute: () => ({ content: [] }),
        })),
      ),
    ),
};

async function writeLogs(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'eval-logs-'));
  const kernel = createKernel({ plugins: [tools, telemetryPlugin({ sessionLog: { dir }, tokenizer: false })] });
  const run = await kernel.createRun({ sessionId: 'logged' });
  const hits = ['core:core:exec', 'core:core:read'];
  run.emit({
    type: 'search',
    queries: ['read a text file from the workspace'],
    hits,
    origin: 'tool_call',
    results: [{ query: 'read a text file from the workspace', hits, weak: false }],
  });
  await run.call('core:core:read', {}, { origin: 'tool_call' });
  run.emit({
    type: 'search',
    queries: ['run a shell command'],
    hits: [],
    origin: 'tool_call',
    results: [{ query: 'run a shell command', hits: [], weak: true }],
  });
  await run.call('core:core:exec', {}, { origin: 'tool_call' });
  await run.close();
  await kernel.close();
  return dir;
}

interface EvalJson {
  metrics: Record<string, number>;
  queries: { query: string; relevant: string[]; ranked: string[] }[];
}

describe('tool-search eval --from-logs', () => {
  it('turns logged searches followed by a call into queries and scores them on the catalog', async () => {
    const logs = await writeLogs();
    const { code, stdout } = await cli(['eval', '--from-logs', logs, '--json'], smallCatalog(20));
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as EvalJson;
    expect(out.queries.map((q) => [q.query, q.relevant])).toEqual([
      ['read a text file from the workspace', ['core:core:read']],
      ['run a shell command', ['core:core:exec']],
    ]);
    expect(out.metrics.recallAt10).toBeGreaterThan(0);
  });

  it('refuses a directory without session logs, and --queries with --from-logs', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'eval-empty-'));
    const cwd = smallCatalog(5);
    expect((await cli(['eval', '--from-logs', empty], cwd)).code).toBe(1);
    expect((await cli(['eval', '--from-logs', empty, '--queries', 'q.json'], cwd)).code).toBe(1);
    expect((await cli(['eval'], cwd)).code).toBe(1);
  });
});

describe('tool-search eval --embeddings', () => {
  const QUERIES = [
    { query: 'read a text file from the workspace', relevant: ['core:core:read'] },
    { query: 'run a shell command', relevant: ['core:core:exec', 'core:core:bash'] },
  ];

  it('prints lexical, dense and fused metrics side by side (embeddings from the mock over HTTP)', async () => {
    const { startMockOpenAI } = await import('@tool-search/mock-openai');
    const mock = await startMockOpenAI();
    try {
      const cwd = smallCatalog(20);
      writeFileSync(join(cwd, 'q.json'), JSON.stringify(QUERIES));
      writeFileSync(join(cwd, 'embeddings.json'), JSON.stringify({ baseURL: mock.url, model: 'mock-embedding' }));
      const json = await cli(['eval', '--queries', 'q.json', '--embeddings', 'embeddings.json', '--json'], cwd);
      expect(json.code).toBe(0);
      const out = JSON.parse(json.stdout) as Record<string, unknown>;
      expect(Object.keys(out)).toEqual(['model', 'lexical', 'dense', 'fused']);
      for (const key of ['lexical', 'dense', 'fused'])
        expect(out[key]).toMatchObject({
          recallAt5: expect.any(Number),
          hitAt5: expect.any(Number),
          mrr: expect.any(Number),
        });
      const text = await cli(['eval', '--queries', 'q.json', '--embeddings', 'embeddings.json'], cwd);
      expect(text.stdout).toMatch(/lexical \(bm25f\)[\s\S]*dense \(mock-embedding\)[\s\S]*fused \(RRF\)/);
      expect(mock.requests.filter((request) => request.path === '/v1/embeddings').length).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });

  it('fails with a clear error when the embedder cannot be reached, or the file has no embedder', async () => {
    const cwd = smallCatalog(5);
    writeFileSync(join(cwd, 'q.json'), JSON.stringify(QUERIES));
    writeFileSync(
      join(cwd, 'down.json'),
      JSON.stringify({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 500 }),
    );
    writeFileSync(join(cwd, 'none.json'), JSON.stringify({ tools: {} }));
    const down = await cli(['eval', '--queries', 'q.json', '--embeddings', 'down.json'], cwd);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('could not embed the catalog');
    expect((await cli(['eval', '--queries', 'q.json', '--embeddings', 'none.json'], cwd)).code).toBe(1);
  });
});
