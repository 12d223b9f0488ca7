// The fd-relative file access: symlinks that stay inside are followed, any that lead out are refused, loops end,
// and nothing is ever read from or written to outside the workspace.
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  lstatSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import {
  openInWorkspace,
  removeInWorkspace,
  statInWorkspace,
  workspaceRoot,
  writeInWorkspace,
} from '@tool-search/workspace';
import { WorkspaceErrors } from '../src/errors.js';

function setup() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'ws-confined-')));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  writeFileSync(join(root, 'src', 'a.txt'), 'a');
  return { root: workspaceRoot(root), outside };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code?: string; details?: { rule?: string } } | undefined;
  return error && { code: error.code, rule: error.details?.rule };
};
const read = async (root: string, path: string) => {
  const opened = await openInWorkspace(root, path);
  if (!opened) return undefined;
  try {
    return { text: await opened.handle.readFile('utf8'), relative: opened.relative };
  } finally {
    await opened.handle.close();
  }
};

describe('fd-relative workspace access', () => {
  it('reads and writes through symlinks that stay inside (relative and absolute), at the place they point to', async () => {
    const { root } = setup();
    symlinkSync('src', join(root, 'alias'));
    symlinkSync(join(root, 'src', 'a.txt'), join(root, 'abs-link.txt'));
    symlinkSync('../src/a.txt', join(root, 'src', 'self.txt'));
    expect(await read(root, 'alias/a.txt')).toEqual({ text: 'a', relative: 'src/a.txt' });
    expect(await read(root, 'abs-link.txt')).toEqual({ text: 'a', relative: 'src/a.txt' });
    expect(await read(root, 'src/self.txt')).toEqual({ text: 'a', relative: 'src/a.txt' });
    expect(await writeInWorkspace(root, 'alias/b.txt', 'b')).toEqual({ relative: 'src/b.txt' });
    expect(readFileSync(join(root, 'src', 'b.txt'), 'utf8')).toBe('b');
    await writeInWorkspace(root, 'abs-link.txt', 'A');
    expect(readFileSync(join(root, 'src', 'a.txt'), 'utf8')).toBe('A');
    expect(lstatSync(join(root, 'abs-link.txt')).isSymbolicLink()).toBe(true);
  });

  it('refuses symlinks out (file, folder, dangling, relative ..), for read, write, stat and remove', async () => {
    const { root, outside } = setup();
    symlinkSync(join(outside, 'secret.txt'), join(root, 'leak.txt'));
    symlinkSync(outside, join(root, 'src', 'out'));
    symlinkSync('../../outside/new.txt', join(root, 'src', 'dangling.txt'));
    const outsideRule = { code: WorkspaceErrors.PATH_OUTSIDE_WORKSPACE, rule: 'symlink' };
    expect(await refusal(openInWorkspace(root, 'leak.txt'))).toEqual(outsideRule);
    expect(await refusal(openInWorkspace(root, 'src/out/secret.txt'))).toEqual(outsideRule);
    expect(await refusal(writeInWorkspace(root, 'src/out/deep/new.txt', 'x'))).toEqual(outsideRule);
    expect(await refusal(writeInWorkspace(root, 'src/dangling.txt', 'x'))).toEqual(outsideRule);
    expect(await refusal(writeInWorkspace(root, 'leak.txt', 'x'))).toEqual(outsideRule);
    expect(await refusal(statInWorkspace(root, 'src/out/secret.txt'))).toEqual(outsideRule);
    expect(await refusal(removeInWorkspace(root, 'src/out/secret.txt'))).toEqual(outsideRule);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    expect(existsSync(join(outside, 'new.txt')) || existsSync(join(outside, 'deep'))).toBe(false);
  });

  it('removes a symlink itself rather than what it points to', async () => {
    const { root, outside } = setup();
    symlinkSync(join(root, 'src', 'a.txt'), join(root, 'inner-link'));
    await removeInWorkspace(root, 'inner-link');
    expect(existsSync(join(root, 'inner-link'))).toBe(false);
    expect(readFileSync(join(root, 'src', 'a.txt'), 'utf8')).toBe('a');
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('ends a symlink loop with a refusal, and reports missing files and folders plainly', async () => {
    const { root } = setup();
    symlinkSync('loop-b', join(root, 'loop-a'));
    symlinkSync('loop-a', join(root, 'loop-b'));
    expect(await refusal(openInWorkspace(root, 'loop-a'))).toEqual({
      code: WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
      rule: 'symlink',
    });
    expect(await openInWorkspace(root, 'missing/file.txt')).toBeUndefined();
    expect(await statInWorkspace(root, 'src')).toMatchObject({ kind: 'folder', relative: 'src' });
    expect(await statInWorkspace(root, 'src/a.txt')).toMatchObject({ kind: 'file' });
    expect(await refusal(openInWorkspace(root, 'src'))).toEqual({
      code: WorkspaceErrors.FILE_NOT_FOUND,
      rule: undefined,
    });
  });

  it('keeps the lexical refusals: .., absolute outside, empty and NUL', async () => {
    const { root, outside } = setup();
    expect((await refusal(writeInWorkspace(root, '../outside/x.txt', 'x')))?.rule).toBe('dotdot');
    expect((await refusal(openInWorkspace(root, join(outside, 'secret.txt'))))?.rule).toBe('absolute');
    expect((await refusal(openInWorkspace(root, '')))?.rule).toBe('empty');
    expect((await refusal(openInWorkspace(root, 'a\0b')))?.rule).toBe('nul');
  });
});
