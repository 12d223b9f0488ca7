import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { READ_DEFAULT_LINES, READ_MAX_CHARS } from '@tool-search/plugin-fs';
import { codeOf, fsRun, textOf } from './fixtures.js';
import { FsErrors } from '../src/errors.js';
import { WorkspaceErrors } from '@tool-search/workspace';

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

async function setup(options = {}) {
  const env = await fsRun(options);
  close = env.close;
  return env;
}

describe('the file tools', () => {
  it('are core tools with ids core:core:<name> and exactly the documented parameters', async () => {
    const { run } = await setup({ applyPatch: { enabled: true } });
    const params = (name: string) =>
      Object.keys((run.tool(name)!.inputSchema as { properties: object }).properties).sort();
    expect(run.catalog.map((t) => t.id).sort()).toEqual([
      'core:core:apply_patch',
      'core:core:edit',
      'core:core:read',
      'core:core:write',
    ]);
    expect(params('read')).toEqual(['limit', 'offset', 'path']);
    expect(params('write')).toEqual(['content', 'path']);
    expect(params('edit')).toEqual(['newText', 'oldText', 'path']);
    expect(params('apply_patch')).toEqual(['input']);
  });

  it('lists apply_patch only when tools.exec.applyPatch.enabled is true', async () => {
    const { run } = await setup();
    expect(run.tool('apply_patch')).toBeUndefined();
  });

  it('read returns the lines of a file, paged by offset and limit', async () => {
    const { ws, run } = await setup();
    writeFileSync(join(ws, 'notes.txt'), 'one\ntwo\nthree\nfour\n');
    expect(textOf(await run.call('read', { path: 'notes.txt' }))).toBe('one\ntwo\nthree\nfour');
    const page = textOf(await run.call('read', { path: 'notes.txt', offset: 2, limit: 2 }));
    expect(page.split('\n').slice(0, 2)).toEqual(['two', 'three']);
    expect(page).toContain('offset=4');
  });

  it(`read stops at ${READ_DEFAULT_LINES} lines without a limit and says how to continue`, async () => {
    const { ws, run } = await setup();
    writeFileSync(
      join(ws, 'big.txt'),
      Array.from({ length: READ_DEFAULT_LINES + 10 }, (_, i) => `line ${i + 1}`).join('\n'),
    );
    const out = textOf(await run.call('read', { path: 'big.txt' }));
    expect(out).toContain(`line ${READ_DEFAULT_LINES}\n`);
    expect(out).not.toContain(`line ${READ_DEFAULT_LINES + 1}\n`);
    expect(out).toContain(`offset=${READ_DEFAULT_LINES + 1}`);
  });

  it('read says when offset is past the end, and cuts at READ_MAX_CHARS', async () => {
    const { ws, run } = await setup();
    writeFileSync(join(ws, 'short.txt'), 'a\nb\n');
    expect(textOf(await run.call('read', { path: 'short.txt', offset: 5 }))).toContain('has 2 lines');
    writeFileSync(join(ws, 'wide.txt'), `${'x'.repeat(READ_MAX_CHARS + 10)}\nsecond\n`);
    const out = textOf(await run.call('read', { path: 'wide.txt' }));
    expect(out.startsWith('x'.repeat(READ_MAX_CHARS))).toBe(true);
    expect(out).toContain('offset=2');
    expect(out.length).toBeLessThan(READ_MAX_CHARS + 200);
  });

  it('read returns an image as an attachment', async () => {
    const { ws, run } = await setup();
    writeFileSync(join(ws, 'dot.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const outcome = await run.call('read', { path: 'dot.png' });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: { content: [{ type: 'image', mimeType: 'image/png', data: 'iVBORw==' }] },
    });
  });

  it('read of a missing file or a folder is FILE_NOT_FOUND', async () => {
    const { run } = await setup();
    expect(codeOf(await run.call('read', { path: 'missing.txt' }))).toBe(WorkspaceErrors.FILE_NOT_FOUND);
    expect(codeOf(await run.call('read', { path: '.' }))).toBe(WorkspaceErrors.FILE_NOT_FOUND);
  });

  it('write creates parent folders and replaces a file', async () => {
    const { ws, run } = await setup();
    await run.call('write', { path: 'a/b/c.txt', content: 'first' });
    await run.call('write', { path: 'a/b/c.txt', content: 'second' });
    expect(readFileSync(join(ws, 'a/b/c.txt'), 'utf8')).toBe('second');
  });

  it('edit replaces the one exact match', async () => {
    const { ws, run } = await setup();
    writeFileSync(join(ws, 'app.ts'), 'const a = 1;\nconst b = 2;\n');
    expect(
      textOf(await run.call('edit', { path: 'app.ts', oldText: 'const b = 2;', newText: 'const b = 3;' })),
    ).toContain('line 2');
    expect(readFileSync(join(ws, 'app.ts'), 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('edit fails clearly when oldText is missing or not unique, and changes nothing', async () => {
    const { ws, run } = await setup();
    writeFileSync(join(ws, 'dup.txt'), 'x\nx\n');
    expect(codeOf(await run.call('edit', { path: 'dup.txt', oldText: 'y', newText: 'z' }))).toBe(
      FsErrors.EDIT_NO_MATCH,
    );
    expect(codeOf(await run.call('edit', { path: 'dup.txt', oldText: 'x', newText: 'z' }))).toBe(
      FsErrors.EDIT_NOT_UNIQUE,
    );
    expect(readFileSync(join(ws, 'dup.txt'), 'utf8')).toBe('x\nx\n');
  });

  it('edit with an empty oldText is refused by the schema', async () => {
    const { ws, run } = await setup();
    writeFileSync(join(ws, 'f.txt'), 'x');
    await expect(run.call('edit', { path: 'f.txt', oldText: '', newText: 'z' })).rejects.toMatchObject({
      code: ErrorCode.TOOL_ARGUMENTS_INVALID,
    });
    expect(existsSync(join(ws, 'f.txt'))).toBe(true);
  });
});
