import { afterEach, describe, expect, it } from 'vitest';
import { DIRECTORY_HEADER, DIRECTORY_ID_NOTE, renderDirectory, type DirectoryEntry } from '../src/index.js';
import { directoryRun } from './fixtures.js';
import { fakeTool as fake } from '@tool-search/testing';

const long = 'Fetches records from the remote service with pagination, retries, filtering and sorting. '.repeat(4);
const entries: DirectoryEntry[] = Array.from({ length: 24 }, (_, i) => ({
  id: `mcp:srv${i % 3}:tool_${String(i).padStart(2, '0')}`,
  owner: `srv${i % 3}`,
  label: `tool_${String(i).padStart(2, '0')}`,
  description: `${long} Variant ${i}.`,
}));
const rows = (text: string) => text.split('\n').filter((line) => line.startsWith('- '));

describe('directory budget', () => {
  it('lists every tool with a short description when it fits', () => {
    const out = renderDirectory(entries, 100_000);
    expect(out).toMatchObject({ level: 'full', listed: 24, omitted: 0 });
    expect(rows(out.text)).toHaveLength(24);
    for (const row of rows(out.text)) expect(row.length).toBeLessThanOrEqual('- tool_00: '.length + 120);
  });

  it('shortens descriptions first when over budget', () => {
    const full = renderDirectory(entries, 100_000).text.length;
    const out = renderDirectory(entries, full - 1);
    expect(out).toMatchObject({ level: 'short', listed: 24, omitted: 0 });
    expect(out.text.length).toBeLessThan(full);
    for (const row of rows(out.text)) expect(row).toMatch(/^- tool_\d\d: .+/);
  });

  it('falls back to names only', () => {
    const shortest = withShortestDescriptions();
    const out = renderDirectory(entries, shortest - 1);
    expect(out).toMatchObject({ level: 'names', listed: 24, omitted: 0 });
    expect(out.text).not.toContain('Fetches');
    expect(out.text).toContain('[srv0] tool_00, tool_03');
    expect(out.text.length).toBeLessThanOrEqual(shortest - 1);
  });

  it('then drops rows, with a footer saying how many and to use tool_search', () => {
    const names = renderDirectory(entries, withShortestDescriptions() - 1).text.length;
    const out = renderDirectory(entries, names - 40);
    expect(out.level).toBe('dropped');
    expect(out.listed + out.omitted).toBe(24);
    expect(out.omitted).toBeGreaterThan(0);
    expect(out.text.length).toBeLessThanOrEqual(names - 40);
    expect(out.text.split('\n').at(-1)).toBe(
      `(${out.omitted} more tools are not listed here; find them with tool_search.)`,
    );
  });

  it('keeps only the header and footer when nothing fits', () => {
    const out = renderDirectory(entries, 0);
    expect(out).toMatchObject({ level: 'dropped', listed: 0, omitted: 24 });
    expect(out.text).toBe(`${DIRECTORY_HEADER}\n(24 more tools are not listed here; find them with tool_search.)`);
  });

  it('counts tools that cannot be shown in the footer', () => {
    const out = renderDirectory(entries.slice(0, 2), 100_000, 3);
    expect(out).toMatchObject({ level: 'full', listed: 2, omitted: 3 });
    expect(out.text).toContain('(3 more tools are not listed here');
  });

  it('explains id rows only when some rows show an id', () => {
    expect(renderDirectory(entries, 100_000).text).not.toContain(DIRECTORY_ID_NOTE);
    const withId = [...entries, { id: 'mcp:a:dup', owner: 'a', label: 'mcp:a:dup', description: 'Shared name.' }];
    expect(renderDirectory(withId, 100_000).text.split('\n')[0]).toBe(`${DIRECTORY_HEADER} ${DIRECTORY_ID_NOTE}`);
  });

  it('renders the same text whatever the input order', () => {
    const shuffled = [...entries].reverse().sort((a, b) => (a.description.length % 7) - (b.description.length % 7));
    for (const budget of [100_000, 3000, 600, 200])
      expect(renderDirectory(shuffled, budget).text).toBe(renderDirectory(entries, budget).text);
  });

  it('renders nothing for an empty directory', () => {
    expect(renderDirectory([], 100).text).toBe('');
  });
});

describe('budgetChars option', () => {
  const kernels: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
  });

  it('bounds the directory in the system prompt; hidden names stay callable', async () => {
    const tools = Array.from({ length: 40 }, (_, i) => fake(`tool_${i}`, 'plugin', `owner${i % 4}`, long));
    const opened = await directoryRun({ budgetChars: 400 }, tools);
    kernels.push(opened.kernel);
    const directory = opened.exposure.system.slice(opened.exposure.system.indexOf('Tool directory'));
    expect(directory.length).toBeLessThanOrEqual(400);
    expect(directory).toMatch(/\(\d+ more tools are not listed here; find them with tool_search\.\)$/);
    expect(await opened.exposure.call('tool_39', {})).toMatchObject({ status: 'ok' });
  });
});

function withShortestDescriptions(): number {
  // Smallest text that still has descriptions: render at a budget that forces the last description step.
  let budget = renderDirectory(entries, 100_000).text.length;
  while (renderDirectory(entries, budget).level !== 'names') budget--;
  return budget + 1;
}
