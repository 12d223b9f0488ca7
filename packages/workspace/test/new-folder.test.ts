// createFolderInWorkspace: a new folder (never one already there, nor a symlink at its name), parents made through the
// fd-relative walk, files created exclusively in the held folder, and a path on the way that leads out refused.
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confinedAccessIsRaceFree, createFolderInWorkspace } from '@tool-search/workspace';
import { WorkspaceErrors } from '../src/errors.js';

function setup() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'ws-new-folder-')));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return { root, outside };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );

if (!confinedAccessIsRaceFree)
  console.warn('skipping the held-folder test: /proc/self/fd is not available, so access is not fd-relative here');

describe('createFolderInWorkspace', () => {
  it('makes the folder and its parents (mode as asked), and creates files in it exclusively', async () => {
    const { root } = setup();
    const folder = await createFolderInWorkspace(root, 'a/b/new', 0o700);
    try {
      expect(folder.relative).toBe('a/b/new');
      expect(lstatSync(join(root, 'a/b/new')).mode & 0o777).toBe(0o700);
      await folder.createFile('x.txt', 'hello', 0o600);
      expect(readFileSync(join(root, 'a/b/new/x.txt'), 'utf8')).toBe('hello');
      expect(lstatSync(join(root, 'a/b/new/x.txt')).mode & 0o777).toBe(0o600);
      expect(await failure(folder.createFile('x.txt', 'again'))).toBe('EEXIST');
      for (const name of ['..', '.', 'a/b', ''])
        expect(await failure(folder.createFile(name, 'x'))).toBe(WorkspaceErrors.PATH_OUTSIDE_WORKSPACE);
    } finally {
      await folder.close();
    }
  });

  it('refuses a name already there (a folder, or a symlink to outside) and a parent that leads out', async () => {
    const { root, outside } = setup();
    mkdirSync(join(root, 'there'));
    symlinkSync(outside, join(root, 'link'));
    expect(await failure(createFolderInWorkspace(root, 'there'))).toBe('EEXIST');
    expect(await failure(createFolderInWorkspace(root, 'link'))).toBe('EEXIST');
    expect(await failure(createFolderInWorkspace(root, 'link/new'))).toBe(WorkspaceErrors.PATH_OUTSIDE_WORKSPACE);
    expect(readdirSync(outside)).toEqual([]);
  });

  it.skipIf(!confinedAccessIsRaceFree)(
    'a file created in a held folder lands there even after the folder was moved away',
    async () => {
      const { root } = setup();
      const folder = await createFolderInWorkspace(root, 'held');
      try {
        renameSync(join(root, 'held'), join(root, 'moved'));
        symlinkSync(join(root, '..', 'outside'), join(root, 'held'));
        await folder.createFile('f.txt', 'x');
        expect(readdirSync(join(root, 'moved'))).toEqual(['f.txt']);
        expect(readdirSync(join(root, '..', 'outside'))).toEqual([]);
      } finally {
        await folder.close();
      }
    },
  );
});
