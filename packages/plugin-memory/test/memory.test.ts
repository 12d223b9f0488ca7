import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createKernel, type Run } from '@tool-search/kernel';
import { chunkMarkdown, memoryPlugin } from '../src/index.js';
import { MemoryErrors } from '../src/errors.js';
import { WorkspaceErrors } from '@tool-search/workspace';

let workspace: string;
let run: Run;

function write(path: string, text: string) {
  mkdirSync(join(workspace, path, '..'), { recursive: true });
  writeFileSync(join(workspace, path), text);
}

const parsed = (outcome: Awaited<ReturnType<Run['call']>>) => {
  if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
  return JSON.parse((outcome.result.content[0] as { text: string }).text) as {
    results: { path: string; startLine: number; endLine: number; snippet: string }[];
  } & Record<string, unknown>;
};

beforeEach(async () => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'memory-ws-')));
  write(
    'MEMORY.md',
    '# Family\n\nMy daughter is called Ada. She was born in March.\n\n# Preferences\n\nI prefer tea over coffee in the morning.\n',
  );
  write(
    'memory/2026-11-30.md',
    '# 2026-11-30\n\n- Booked the dentist for Tuesday at 9.\n- The invoices for 2025 are in Documents/invoices-2025.\n',
  );
  write('memory/projects/garden.md', '## Garden\n\nPlant the tulip bulbs before the first frost.\n');
  write('notes.md', 'Not a memory file: the secret word is zebra.\n');
  run = await createKernel({ plugins: [memoryPlugin({ workspace })] }).createRun({});
});

describe('memory_search', () => {
  it('finds the note that answers a question, with its path and line range', async () => {
    const { results } = parsed(await run.call('memory_search', { query: 'what is my daughter called' }));
    expect(results[0]).toMatchObject({ path: 'MEMORY.md', startLine: 1 });
    expect(results[0]!.snippet).toContain('Ada');
  });

  it('searches daily notes and nested memory folders', async () => {
    expect(parsed(await run.call('memory_search', { query: 'dentist appointment' })).results[0]).toMatchObject({
      path: 'memory/2026-11-30.md',
    });
    expect(parsed(await run.call('memory_search', { query: 'tulip bulbs' })).results[0]).toMatchObject({
      path: 'memory/projects/garden.md',
    });
  });

  it('never searches files outside MEMORY.md and memory/', async () => {
    const { results } = parsed(await run.call('memory_search', { query: 'secret word zebra' }));
    expect(results.map((r) => r.path)).not.toContain('notes.md');
  });

  it('sees a note written after the first search (the index follows file changes)', async () => {
    await run.call('memory_search', { query: 'tea' });
    write('memory/2026-12-01.md', '# 2026-12-01\n\nThe boat is moored at pontoon 14 in the marina.\n');
    expect(parsed(await run.call('memory_search', { query: 'where is the boat moored' })).results[0]).toMatchObject({
      path: 'memory/2026-12-01.md',
    });
  });

  it('skips a memory file that is a symlink out of the workspace', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'memory-out-'));
    writeFileSync(join(outside, 'leak.md'), 'The vault combination is 31-41-59.\n');
    symlinkSync(join(outside, 'leak.md'), join(workspace, 'memory', 'leak.md'));
    const { results } = parsed(await run.call('memory_search', { query: 'vault combination' }));
    expect(results.map((r) => r.path)).not.toContain('memory/leak.md');
  });
});

describe('memory_get', () => {
  it('returns lines of a memory file', async () => {
    expect(parsed(await run.call('memory_get', { path: 'MEMORY.md', from: 3, lines: 1 }))).toMatchObject({
      path: 'MEMORY.md',
      from: 3,
      lines: 1,
      text: 'My daughter is called Ada. She was born in March.',
    });
  });

  it('reads a file that does not exist yet as empty', async () => {
    expect(parsed(await run.call('memory_get', { path: 'memory/2030-01-01.md' }))).toMatchObject({
      text: '',
      lines: 0,
    });
  });

  it.each([
    ['a non-memory file', 'notes.md', MemoryErrors.MEMORY_PATH_INVALID],
    ['a path climbing out', '../../etc/passwd', WorkspaceErrors.PATH_OUTSIDE_WORKSPACE],
    ['an absolute path outside', '/etc/hostname', WorkspaceErrors.PATH_OUTSIDE_WORKSPACE],
    ['a markdown file outside memory/', 'docs/readme.md', MemoryErrors.MEMORY_PATH_INVALID],
  ])('refuses %s', async (_name, path, code) => {
    expect(await run.call('memory_get', { path })).toMatchObject({ status: 'error', error: { code } });
  });

  it('refuses a memory path that is a symlink out of the workspace', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'memory-out-'));
    writeFileSync(join(outside, 'leak.md'), 'secret\n');
    symlinkSync(join(outside, 'leak.md'), join(workspace, 'memory', 'leak.md'));
    expect(await run.call('memory_get', { path: 'memory/leak.md' })).toMatchObject({
      status: 'error',
      error: { code: WorkspaceErrors.PATH_OUTSIDE_WORKSPACE },
    });
  });
});

describe('chunkMarkdown', () => {
  it('cuts sections at headings and long sections at blank lines, with 1-based inclusive ranges', () => {
    const text = [
      '# A',
      'one',
      '',
      '# B',
      ...Array.from({ length: 30 }, (_, i) => (i % 7 === 6 ? '' : `line ${i}`)),
    ].join('\n');
    const chunks = chunkMarkdown('MEMORY.md', text);
    expect(chunks[0]).toMatchObject({ startLine: 1, endLine: 2, heading: 'A', text: '# A\none' });
    for (const chunk of chunks) expect(chunk.endLine - chunk.startLine + 1).toBeLessThanOrEqual(12);
    expect(chunks.slice(1).every((c) => c.heading === 'B')).toBe(true);
  });
});
