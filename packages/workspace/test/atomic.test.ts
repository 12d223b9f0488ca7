import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '@tool-search/workspace';

describe('writeFileAtomic', () => {
  it('creates parent folders and leaves no temp file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ws-atomic-'));
    await writeFileAtomic(join(dir, 'a/b/c.txt'), 'hello');
    expect(readFileSync(join(dir, 'a/b/c.txt'), 'utf8')).toBe('hello');
    expect(readdirSync(join(dir, 'a/b'))).toEqual(['c.txt']);
  });

  it('keeps the mode of the file it replaces', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ws-atomic-'));
    const file = join(dir, 'run.sh');
    writeFileSync(file, 'old');
    chmodSync(file, 0o755);
    await writeFileAtomic(file, 'new');
    expect(statSync(file).mode & 0o777).toBe(0o755);
    expect(readFileSync(file, 'utf8')).toBe('new');
  });

  it('leaves the old file untouched when the write fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ws-atomic-'));
    writeFileSync(join(dir, 'keep.txt'), 'old');
    // A folder where the file should go: the rename fails after the temp file was written.
    await expect(writeFileAtomic(join(dir, 'keep.txt', 'x'), 'new')).rejects.toBeTruthy();
    expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });
});
