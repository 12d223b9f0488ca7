import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '@tool-search/kernel';
import { indexForRun, isIndexBuilt, prepareIndex } from '../src/index.js';
import { catalog, tool } from './helpers/tools.js';

const runWith = (tools: readonly ToolDescriptor[]) => ({ catalog: tools });

describe('indexForRun', () => {
  it('returns the same index for the same run catalog', () => {
    const run = runWith([...catalog]);
    expect(indexForRun(run)).toBe(indexForRun(run));
    expect(indexForRun(run)).toBe(indexForRun(runWith(run.catalog)));
  });

  it('builds a new index for a different catalog array', () => {
    expect(indexForRun(runWith([...catalog]))).not.toBe(indexForRun(runWith([...catalog])));
  });

  it('keeps one index per distinct options on the same catalog', () => {
    const run = runWith([...catalog]);
    expect(indexForRun(run, { searchDefaultLimit: 3 })).not.toBe(indexForRun(run));
    expect(indexForRun(run, { searchDefaultLimit: 3 })).toBe(indexForRun(run, { searchDefaultLimit: 3 }));
  });

  it('views with other limits share the ranking and the hits of one core', () => {
    const run = runWith([...catalog]);
    const small = indexForRun(run, { searchDefaultLimit: 1 });
    const large = indexForRun(run, { searchDefaultLimit: 5 });
    expect(small.search('file').hits).toHaveLength(1);
    expect(large.search('file').hits.length).toBeGreaterThan(1);
    expect(small.search('file').hits[0]).toBe(large.search('file').hits[0]);
  });

  it('indexes only catalog-mode tools, never direct-only ones', () => {
    const direct = tool('read_everything', 'Read every file.', { type: 'object' }, { catalogMode: 'direct-only' });
    const index = indexForRun(runWith([...catalog, direct]));
    expect(index.size).toBe(catalog.length);
    expect(index.describe('read_everything')).toBeUndefined();
    expect(index.search('read_everything').hits.map((hit) => hit.name)).not.toContain('read_everything');
  });
});

describe('prepareIndex', () => {
  it('builds the index off the request path, before any search, and the first search finds it built', async () => {
    const run = runWith(catalog.map((t) => ({ ...t })));
    const index = prepareIndex(run);
    expect(isIndexBuilt(run)).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(isIndexBuilt(run)).toBe(true);
    expect(index.search('read a file').hits[0]?.name).toBe('read_file');
    expect(prepareIndex(run)).toBe(index);
  });

  it('a search that comes before the scheduled build builds it itself; the build then does nothing', async () => {
    const run = runWith(catalog.map((t) => ({ ...t })));
    const index = prepareIndex(run);
    expect(index.search('send a message to slack').hits[0]?.name).toBe('send_message');
    expect(isIndexBuilt(run)).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(index.search('send a message to slack').hits[0]?.name).toBe('send_message');
  });
});
