// Inputs that used to kill or freeze the process. Each test fails if the process would crash (an uncaught
// exception), hang, or the tool answers with something other than a coded result; a later call must still work.
import { execFileSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { FsErrors, READ_MAX_CHARS } from '@tool-search/plugin-fs';
import { codeOf, fsRun, textOf } from './fixtures.js';
import { WorkspaceErrors } from '@tool-search/workspace';

let close: (() => Promise<void>) | undefined;
const uncaught: unknown[] = [];
const record = (error: unknown) => uncaught.push(error);
beforeEach(() => {
  uncaught.length = 0;
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
});
afterEach(async () => {
  process.off('uncaughtException', record);
  process.off('unhandledRejection', record);
  await close?.();
});

async function setup() {
  const env = await fsRun({ applyPatch: { enabled: true } });
  close = env.close;
  writeFileSync(join(env.ws, 'ok.txt'), 'still here\n');
  return env;
}

/** A sparse file of `size` (truncate(1): no disk used), one single line of NUL bytes. */
const sparse = (path: string, size: string) => execFileSync('truncate', ['-s', size, path]);

describe('inputs that used to crash the process', () => {
  it('read of a 600 MB single-line file returns the line cut with a note, and the process keeps serving', async () => {
    const { ws, run } = await setup();
    sparse(join(ws, 'huge.txt'), '600M');
    const out = textOf(await run.call('read', { path: 'huge.txt' }));
    expect(out.startsWith('\0'.repeat(READ_MAX_CHARS))).toBe(true);
    expect(out).toContain(`line 1 cut at ${READ_MAX_CHARS} characters`);
    expect(out.length).toBeLessThan(READ_MAX_CHARS + 200);
    expect(textOf(await run.call('read', { path: 'ok.txt' }))).toBe('still here');
    expect(uncaught).toEqual([]);
  }, 120_000);

  it('offset and limit still work past a line longer than V8 strings allow', async () => {
    const { ws, run } = await setup();
    const file = join(ws, 'huge-then-lines.txt');
    sparse(file, '600M');
    appendFileSync(file, '\nsecond\nthird\nfourth\n');
    expect(textOf(await run.call('read', { path: 'huge-then-lines.txt', offset: 2, limit: 2 }))).toMatch(
      /^second\nthird\n\n\[more lines .*offset=4/,
    );
    expect(textOf(await run.call('read', { path: 'huge-then-lines.txt', offset: 4 }))).toBe('fourth');
    expect(textOf(await run.call('read', { path: 'huge-then-lines.txt', offset: 9 }))).toContain('has 4 lines');
    // A short line before a huge one: the page ends at the short line, with a hint to continue.
    writeFileSync(join(ws, 'short-then-huge.txt'), 'first\n');
    execFileSync('truncate', ['-s', '+600M', join(ws, 'short-then-huge.txt')]);
    expect(textOf(await run.call('read', { path: 'short-then-huge.txt' }))).toMatch(
      /^first\n\n\[more lines .*offset=2/,
    );
    expect(uncaught).toEqual([]);
  }, 120_000);

  it('edit and apply_patch refuse a file too large to load whole with FS_FILE_TOO_LARGE, not a crash', async () => {
    const { ws, run } = await setup();
    sparse(join(ws, 'huge.txt'), '600M');
    expect(codeOf(await run.call('edit', { path: 'huge.txt', oldText: 'a', newText: 'b' }))).toBe(
      FsErrors.FS_FILE_TOO_LARGE,
    );
    const input = ['*** Begin Patch', '*** Update File: huge.txt', '@@', '-a', '+b', '*** End Patch'].join('\n');
    expect(codeOf(await run.call('apply_patch', { input }))).toBe(FsErrors.FS_FILE_TOO_LARGE);
    expect(textOf(await run.call('read', { path: 'ok.txt' }))).toBe('still here');
    expect(uncaught).toEqual([]);
  }, 120_000);

  it('read, edit and apply_patch of a FIFO answer FILE_NOT_FOUND / PATCH_CONFLICT instead of blocking forever', async () => {
    const { ws, run } = await setup();
    execFileSync('mkfifo', [join(ws, 'pipe')]);
    expect(codeOf(await run.call('read', { path: 'pipe' }))).toBe(WorkspaceErrors.FILE_NOT_FOUND);
    expect(codeOf(await run.call('edit', { path: 'pipe', oldText: 'a', newText: 'b' }))).toBe(
      WorkspaceErrors.FILE_NOT_FOUND,
    );
    const input = ['*** Begin Patch', '*** Delete File: pipe', '*** End Patch'].join('\n');
    expect(codeOf(await run.call('apply_patch', { input }))).toBe(FsErrors.PATCH_CONFLICT);
    expect(uncaught).toEqual([]);
  });

  it('write onto a folder, or below a file, is a coded error', async () => {
    const { run } = await setup();
    expect(codeOf(await run.call('write', { path: '.', content: 'x' }))).toBe(WorkspaceErrors.FILE_NOT_FOUND);
    expect(codeOf(await run.call('write', { path: 'ok.txt/below.txt', content: 'x' }))).toBe(
      WorkspaceErrors.FILE_NOT_FOUND,
    );
    expect(textOf(await run.call('read', { path: 'ok.txt' }))).toBe('still here');
    expect(uncaught).toEqual([]);
  });
});
