// As root, what the workspace calls create belongs to the workspace root's owner (a root gateway's sandbox runs
// commands as that owner, uid 65534, and must be able to change what the file tools wrote); set through the
// descriptor, never by path. Root only: another user cannot give files away.
import {
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFolderInWorkspace, writeFileAtomic, writeInWorkspace } from '@tool-search/workspace';

const ROOT = process.getuid?.() === 0;
if (!ROOT) console.warn('skipping the owner tests of @tool-search/workspace: they need root (run the tests as root)');

const SANDBOX = 65534;

function workspace(owner = SANDBOX): { base: string; ws: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'ws-owner-')));
  const ws = join(base, 'ws');
  mkdirSync(ws);
  chownSync(ws, owner, owner);
  return { base, ws };
}

const ownerOf = (path: string) => [lstatSync(path).uid, lstatSync(path).gid];

describe.skipIf(!ROOT)('as root, new files and folders take the workspace root owner', () => {
  it('writeInWorkspace: the file and every folder it made are the owner’s', async () => {
    const { ws } = workspace();
    await writeInWorkspace(ws, 'a/b/c.txt', 'x');
    for (const path of ['a', 'a/b', 'a/b/c.txt']) expect(ownerOf(join(ws, path))).toEqual([SANDBOX, SANDBOX]);
  });

  it('writeInWorkspace: a replaced file keeps its own owner', async () => {
    const { ws } = workspace();
    writeFileSync(join(ws, 'mine.txt'), 'old');
    chownSync(join(ws, 'mine.txt'), 1234, 1234);
    await writeInWorkspace(ws, 'mine.txt', 'new');
    expect(ownerOf(join(ws, 'mine.txt'))).toEqual([1234, 1234]);
  });

  it('createFolderInWorkspace: the folder, its parents and its files are the owner’s', async () => {
    const { ws } = workspace();
    const made = await createFolderInWorkspace(ws, 'in/box', 0o700);
    await made.createFile('a.txt', 'x');
    await made.close();
    for (const path of ['in', 'in/box', 'in/box/a.txt']) expect(ownerOf(join(ws, path))).toEqual([SANDBOX, SANDBOX]);
  });

  it('a workspace root owns nothing new when root owns it', async () => {
    const { ws } = workspace(0);
    await writeInWorkspace(ws, 'd/f.txt', 'x');
    expect(ownerOf(join(ws, 'd/f.txt'))).toEqual([0, 0]);
  });

  it('a symlink at the name is replaced, never followed: the file outside keeps root as its owner', async () => {
    const { base, ws } = workspace();
    const secret = join(base, 'secret');
    writeFileSync(secret, 'root only', { mode: 0o600 });
    symlinkSync('../secret', join(ws, 'link'));
    await expect(writeInWorkspace(ws, 'link', 'x')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
    expect(ownerOf(secret)).toEqual([0, 0]);
    expect(statSync(secret).mode & 0o777).toBe(0o600);
  });

  it('writeFileAtomic: a new file takes its folder’s owner, a replaced one keeps its own', async () => {
    const { ws } = workspace();
    await writeFileAtomic(join(ws, 'new.txt'), 'x');
    expect(ownerOf(join(ws, 'new.txt'))).toEqual([SANDBOX, SANDBOX]);
    writeFileSync(join(ws, 'old.txt'), 'x');
    await writeFileAtomic(join(ws, 'old.txt'), 'y');
    expect(ownerOf(join(ws, 'old.txt'))).toEqual([0, 0]);
  });
});
