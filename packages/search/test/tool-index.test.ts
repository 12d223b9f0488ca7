import { describe, expect, it } from 'vitest';
import { createToolIndex, type SearchHit } from '../src/index.js';
import type { ToolDescriptor } from '@tool-search/kernel';
import { catalog, tool } from './helpers/tools.js';

describe('createToolIndex: search', () => {
  it('returns compact hits with exactly the documented fields', () => {
    const hit = createToolIndex(catalog).search('read a file').hits[0];
    expect(Object.keys(hit ?? {}).sort()).toEqual(['id', 'input', 'name', 'owner', 'source', 'summary']);
    expect(hit).toMatchObject({ id: 'mcp:files:read_file', name: 'read_file', source: 'mcp', owner: 'files' });
  });

  it('ranks the tool that matches the request first', () => {
    expect(createToolIndex(catalog).search('open a github issue').hits[0]?.name).toBe('create_issue');
  });

  it('puts an exact name match first', () => {
    const index = createToolIndex(catalog);
    expect(index.search('write_file').hits[0]?.id).toBe('mcp:files:write_file');
    expect(index.search('WRITE_FILE').hits[0]?.id).toBe('mcp:files:write_file');
  });

  it('puts an exact id match first', () => {
    expect(createToolIndex(catalog).search('mcp:github:search_issues').hits[0]?.id).toBe('mcp:github:search_issues');
  });

  it('breaks score ties by id, whatever the catalog order', () => {
    const twins = ['b', 'c', 'a'].map((owner) => tool('ping', 'Ping the host.', { type: 'object' }, { owner }));
    const forward = createToolIndex(twins)
      .search('ping host')
      .hits.map((hit) => hit.id);
    const backward = createToolIndex([...twins].reverse())
      .search('ping host')
      .hits.map((hit) => hit.id);
    expect(forward).toEqual(['mcp:a:ping', 'mcp:b:ping', 'mcp:c:ping']);
    expect(backward).toEqual(forward);
  });

  it.each(['', '   ', 'the', 'what is it and how do I', '?!.'])(
    'returns nothing for an empty or stopword-only query (%j)',
    (query) => {
      expect(createToolIndex(catalog).search(query)).toEqual({ query: query.trim(), hits: [], truncated: false });
    },
  );

  it('never comes back empty: with no shared term, the closest partial matches, each marked weak', () => {
    const result = createToolIndex(catalog).search('zebra');
    expect(result.weak).toBe(true);
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.hits.every((hit) => hit.weak === true)).toBe(true);
  });

  it('a word prefix finds partial matches first ("messenger" → message), marked weak', () => {
    const index = createToolIndex([
      tool('list_invoices', 'List invoices.'),
      tool('send_message', 'Send a message.', { type: 'object' }, { owner: 'slack' }),
    ]);
    const result = index.search('messenger');
    expect(result).toMatchObject({ weak: true, hits: [{ name: 'send_message', weak: true }] });
    expect(result.hits).toHaveLength(1);
  });

  it('a good match is not weak, and a result with one is not marked weak', () => {
    const result = createToolIndex(catalog).search('read a file');
    expect(result.weak).toBeUndefined();
    expect(result.hits[0]).toMatchObject({ name: 'read_file' });
    expect(result.hits[0]!.weak).toBeUndefined();
  });

  it('tokenizes Chinese text instead of dropping it', () => {
    expect(createToolIndex(catalog).search('北京天气').hits[0]?.name).toBe('maps_weather');
  });

  it('tokenizes Japanese kana and kanji', () => {
    expect(createToolIndex(catalog).search('今月のメッセージ').hits[0]?.name).toBe('get_message_quota');
  });

  it('tokenizes other scripts (Cyrillic, accented Latin)', () => {
    const index = createToolIndex([
      tool('otchet', 'Создать отчёт о продажах'),
      tool('resume', 'Résumé des ventes du trimestre'),
      tool('read_file', 'Read a file.'),
    ]);
    expect(index.search('отчёт').hits[0]?.name).toBe('otchet');
    expect(index.search('résumé ventes').hits[0]?.name).toBe('resume');
  });

  it('only ever returns tools it was given', () => {
    const index = createToolIndex(catalog.filter((entry) => entry.owner !== 'github'));
    expect(index.search('github issue').hits.every((hit) => hit.owner !== 'github')).toBe(true);
    expect(index.size).toBe(catalog.length - 2);
  });
});

describe('createToolIndex: limits', () => {
  const many = Array.from({ length: 40 }, (_, i) =>
    tool(`report_${String(i).padStart(2, '0')}`, `Build report number ${i}.`),
  );

  it('uses searchDefaultLimit when no limit is given and flags the cut', () => {
    const result = createToolIndex(many, { searchDefaultLimit: 5 }).search('report');
    expect(result.hits).toHaveLength(5);
    expect(result.truncated).toBe(true);
  });

  it('defaults to 8 hits', () => {
    expect(createToolIndex(many).search('report').hits).toHaveLength(8);
  });

  it('clamps limit to maxSearchLimit', () => {
    expect(createToolIndex(many, { maxSearchLimit: 12 }).search('report', { limit: 1000 }).hits).toHaveLength(12);
  });

  it.each([0, -3, Number.NaN])('treats a non-positive or invalid limit (%s) sanely', (limit) => {
    const hits = createToolIndex(many).search('report', { limit }).hits;
    expect(hits.length).toBeGreaterThanOrEqual(1);
    expect(hits.length).toBeLessThanOrEqual(8);
  });

  it('is not truncated when every match fits', () => {
    const result = createToolIndex(catalog).search('slack message', { limit: 20 });
    expect(result.truncated).toBe(false);
  });

  it('cuts hits at the response size cap and flags it', () => {
    const result = createToolIndex(many, { maxResponseBytes: 600 }).search('report', { limit: 20 });
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(600);
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.hits.length).toBeLessThan(20);
    expect(result.truncated).toBe(true);
  });

  it('cuts an over-long query to maxQueryLength', () => {
    const result = createToolIndex(catalog, { maxQueryLength: 9 }).search(`read file ${'zebra '.repeat(10_000)}`);
    expect(result.query).toBe('read file');
    expect(result.hits[0]?.name).toBe('read_file');
  });
});

describe('createToolIndex: batch search', () => {
  it('groups results per query, in order', () => {
    const batch = createToolIndex(catalog).search(['write_file', 'slack message', 'the']);
    expect(batch.results.map((result) => result.query)).toEqual(['write_file', 'slack message', 'the']);
    expect(batch.results[0]?.hits[0]?.name).toBe('write_file');
    expect(batch.results[1]?.hits[0]?.name).toBe('send_message');
    expect(batch.results[2]?.hits).toEqual([]);
  });

  it('applies the limit to each query', () => {
    const batch = createToolIndex(catalog).search(['file', 'issue'], { limit: 1 });
    expect(batch.results.map((result) => result.hits.length)).toEqual([1, 1]);
    expect(batch.truncated).toBe(true);
  });

  it('drops queries past maxBatchQueries and flags the batch', () => {
    const batch = createToolIndex(catalog, { maxBatchQueries: 2 }).search(['file', 'issue', 'slack']);
    expect(batch.results).toHaveLength(2);
    expect(batch.truncated).toBe(true);
  });

  it('shares the response size cap across the batch', () => {
    const batch = createToolIndex(catalog, { maxResponseBytes: 1000 }).search(
      ['file', 'issue', 'message', 'directory'],
      { limit: 20 },
    );
    expect(Buffer.byteLength(JSON.stringify(batch))).toBeLessThanOrEqual(1000);
    expect(batch.results.some((result) => result.hits.length > 0)).toBe(true);
  });

  it('returns an empty batch for an empty list', () => {
    expect(createToolIndex(catalog).search([])).toEqual({ results: [], truncated: false });
  });
});

describe('createToolIndex: describe and suggest', () => {
  it('describes by id with the exact input schema', () => {
    const index = createToolIndex(catalog);
    const description = index.describe('mcp:files:read_file');
    expect(description?.inputSchema).toBe(catalog[0]?.inputSchema);
    expect(description).toMatchObject({
      id: 'mcp:files:read_file',
      name: 'read_file',
      description: catalog[0]?.description,
    });
  });

  it('describes by name', () => {
    expect(createToolIndex(catalog).describe('send_message')?.id).toBe('mcp:slack:send_message');
  });

  it('returns undefined for a tool outside the indexed catalog', () => {
    const index = createToolIndex(catalog.slice(1));
    expect(index.describe('read_file')).toBeUndefined();
    expect(index.describe('mcp:files:read_file')).toBeUndefined();
    expect(index.describe('')).toBeUndefined();
  });

  it('suggests the three closest ids for a miss', () => {
    const suggestions = createToolIndex(catalog).suggest('read_fil');
    expect(suggestions).toHaveLength(3);
    expect(suggestions[0]).toBe('mcp:files:read_file');
  });

  it('suggests only ids of the indexed catalog', () => {
    const index = createToolIndex(catalog.filter((entry) => entry.name !== 'read_file'));
    expect(index.suggest('read_file')).not.toContain('mcp:files:read_file');
  });
});

describe('createToolIndex: hostile descriptors', () => {
  it('indexes a deeply nested schema without blowing the stack and keeps input bounded', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 5000; i++) schema = { type: 'object', properties: { nested: schema }, required: ['nested'] };
    const index = createToolIndex([tool('deep', 'A deep tool.', schema)]);
    const hit = index.search('deep').hits[0] as SearchHit;
    expect(hit.input.length).toBeLessThanOrEqual(300);
  });

  it('keeps summary and input bounded for huge schemas and descriptions', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`field_${i}`, { type: 'string', description: 'x'.repeat(1000) }]),
    );
    const huge = tool('huge', `Huge tool. ${'word '.repeat(100_000)}`, {
      type: 'object',
      properties,
      required: Object.keys(properties),
    });
    const hit = createToolIndex([huge]).search('huge').hits[0] as SearchHit;
    expect(hit.summary.length).toBeLessThanOrEqual(200);
    expect(hit.input.length).toBeLessThanOrEqual(300);
  });

  it('strips control and bidi characters from summary and input', () => {
    const evil = tool('evil', 'Line one\u0000\u001b[31m\nline two \u202eesrever\u0007', {
      type: 'object',
      properties: { 'a\u0000b\u202e': { type: 'string' } },
    });
    const hit = createToolIndex([evil]).search('evil').hits[0] as SearchHit;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters in rendered text
    const control = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    expect(hit.summary).not.toMatch(control);
    expect(hit.input).not.toMatch(control);
  });

  it('survives a schema that is not an object', () => {
    const broken = { ...tool('broken', 'Broken schema.'), inputSchema: null } as unknown as ToolDescriptor;
    expect(createToolIndex([broken]).search('broken').hits[0]?.input).toBe('{}');
  });

  it('survives non-object schema parts', () => {
    const odd = tool('odd', 'Odd schema.', {
      type: 'object',
      properties: { a: null, b: 'string', c: [], d: { items: 5, type: 'array' } },
      required: 'a',
    });
    expect(createToolIndex([odd]).search('odd').hits[0]?.input).toBe(
      '{ a?: unknown; b?: unknown; c?: unknown; d?: unknown[] }',
    );
  });
});
