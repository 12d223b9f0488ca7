/**
 * File access that cannot be raced out of the workspace. `resolveInWorkspace` checks a path and returns it; a
 * process that swaps a folder for a symlink between that check and the open wins the race. Here every access walks
 * from the workspace root one component at a time, holding each folder open and opening the next one relative to
 * it with `O_NOFOLLOW | O_DIRECTORY`, as `openat(2)` would. Node has no `openat`, but on Linux
 * `/proc/self/fd/<fd>/<name>` is resolved from the open folder itself (a "magic link"), not from its path, so
 * swapping any component after it was opened changes nothing. A symlink met on the way is resolved here, textually,
 * against the components already walked: one that stays inside is followed (from the root again), one that leads
 * out is PATH_OUTSIDE_WORKSPACE (`rule: symlink`). Writes create a temp file exclusively in the held folder and
 * rename it over the name, which replaces a symlink instead of following it.
 *
 * When this process is root, what it creates (files, folders) gets an owner it would not otherwise have: an existing
 * file's own, else the workspace root's (a root gateway's sandbox runs commands as that root's owner, uid 65534, and
 * must be able to change what the file tools wrote). The owner is set on the open descriptor (`fchown`), never by path.
 *
 * Without `/proc` (macOS, a sandbox without procfs) the same walk runs on path strings: every component is still
 * checked, but a swap between two steps is not stopped there (see README).
 */
import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open, readlink, rename, rm, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { ToolSearchError } from '@tool-search/kernel';
import { isInside, outside, checkInput } from './paths.js';
import { WorkspaceErrors } from './errors.js';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** The most symlinks one access follows (Linux's own limit), so a loop of links ends. */
const MAX_LINKS = 40;
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

export type EntryKind = 'file' | 'folder' | 'other' | 'missing';

/** Whether accesses are fd-relative (race-free) here: Linux with /proc mounted. */
export const confinedAccessIsRaceFree = PROC_FD;

/**
 * Opens the regular file at `input` for reading (never blocking on a FIFO), or returns `undefined` when nothing is
 * there. Throws PATH_OUTSIDE_WORKSPACE when a component leads out, FILE_NOT_FOUND when it is a folder or not a
 * regular file.
 */
export async function openInWorkspace(
  root: string,
  input: string,
  hops = 0,
): Promise<{ handle: FileHandle; relative: string } | undefined> {
  const place = await walk(root, input, false);
  if (!place) return undefined;
  if (!place.name) {
    await place.close();
    throw notAFile(input, 'folder');
  }
  let handle: FileHandle;
  try {
    handle = await open(place.at(place.name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    if (errno(error) !== 'ELOOP') {
      await place.close();
      if (errno(error) === 'ENOENT') return undefined;
      throw error;
    }
    // The name became a symlink after the walk looked at it: walk again, following it textually.
    const target = await readlink(place.at(place.name)).finally(() => place.close());
    if (hops >= MAX_LINKS) throw outside(input, 'symlink', `more than ${MAX_LINKS} symlinks on the way`);
    return openInWorkspace(root, substitute(root, input, place.folder, target, []).join('/') || '.', hops + 1);
  }
  await place.close();
  // Closed here on every way out but success: a handle left to the garbage collector warns and may be closed late.
  let info: Awaited<ReturnType<FileHandle['stat']>>;
  try {
    info = await handle.stat();
  } catch (error) {
    await handle.close();
    throw error;
  }
  if (!info.isFile()) {
    await handle.close();
    throw notAFile(input, info.isDirectory() ? 'folder' : 'other');
  }
  return { handle, relative: place.relative };
}

/** What is at `input` (after in-workspace symlinks), and its mode when it is a file. */
export async function statInWorkspace(
  root: string,
  input: string,
): Promise<{ kind: EntryKind; relative: string; mode?: number }> {
  const place = await walk(root, input, false);
  if (!place) return { kind: 'missing', relative: lexicalRelative(root, input) };
  try {
    const info = await lstatIfThere(place.at(place.name));
    if (!info) return { kind: 'missing', relative: place.relative };
    const kind: EntryKind = info.isFile() ? 'file' : info.isDirectory() ? 'folder' : 'other';
    return { kind, relative: place.relative, ...(kind === 'file' ? { mode: info.mode & 0o7777 } : {}) };
  } finally {
    await place.close();
  }
}

/**
 * Replaces the file at `input` atomically (temp file + rename in the same held folder), creating parent folders.
 * An existing file keeps its mode. FILE_NOT_FOUND when `input` is a folder.
 */
export async function writeInWorkspace(
  root: string,
  input: string,
  content: string | Uint8Array,
): Promise<{ relative: string }> {
  const place = (await walk(root, input, true))!;
  try {
    if (!place.name) throw notAFile(input, 'folder');
    const existing = await lstatIfThere(place.at(place.name));
    if (existing?.isDirectory()) throw notAFile(input, 'folder');
    const temp = `.${place.name.slice(0, 200)}.${randomBytes(6).toString('hex')}.tmp`;
    const mode = existing?.isFile() ? existing.mode & 0o7777 : 0o666;
    const handle = await open(place.at(temp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
    try {
      try {
        await giveOwner(handle, existing?.isFile() ? existing : place.owner);
        await handle.writeFile(content);
        if (existing?.isFile()) await handle.chmod(mode);
      } finally {
        await handle.close();
      }
      await rename(place.at(temp), place.at(place.name));
    } catch (error) {
      await rm(place.at(temp), { force: true }).catch(() => undefined); // removing our temp file, which may be gone; the error thrown is what counts
      throw error;
    }
    return { relative: place.relative };
  } finally {
    await place.close();
  }
}

/** Removes the file at `input` (the name itself: a symlink is removed, not followed); nothing there is fine. */
export async function removeInWorkspace(root: string, input: string): Promise<void> {
  const place = await walk(root, input, false, false);
  if (!place) return;
  try {
    if (!place.name) throw notAFile(input, 'folder');
    const info = await lstatIfThere(place.at(place.name));
    if (info?.isDirectory()) throw notAFile(input, 'folder');
    await rm(place.at(place.name), { force: true });
  } finally {
    await place.close();
  }
}

/** A folder made by `createFolderInWorkspace`, held open: what is created in it lands in that very folder. */
export interface NewFolder {
  /** Workspace-relative path of the folder, `/`-separated. */
  readonly relative: string;
  /** Creates the file `name` in the folder exclusively (`O_EXCL | O_NOFOLLOW`): never over or through an entry there. */
  createFile(name: string, content: string | Uint8Array, mode?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Makes the new folder `input` (parents created as needed), failing with EEXIST when anything is already at its name,
 * and holds it open: files created in it go into that folder even if a path on the way is swapped meanwhile.
 */
export async function createFolderInWorkspace(root: string, input: string, mode = 0o700): Promise<NewFolder> {
  const place = (await walk(root, input, true, false))!;
  let held: FileHandle;
  try {
    if (!place.name) throw notAFile(input, 'folder');
    await mkdir(place.at(place.name), { mode });
    held = await open(place.at(place.name), DIR_FLAGS);
  } finally {
    await place.close();
  }
  const owner = place.owner;
  await giveOwner(held, owner).catch((error: unknown) => held.close().then(() => Promise.reject(error)));
  const parts = [...place.folder, place.name];
  if (PROC_FD)
    await checkHeld(root, held, parts).catch((error: unknown) => held.close().then(() => Promise.reject(error)));
  const at = (entry: string) => (PROC_FD ? `/proc/self/fd/${held.fd}/${entry}` : join(root, ...parts, entry));
  return {
    relative: place.relative,
    async createFile(name, content, fileMode = 0o600) {
      if (!name || name === '.' || name === '..' || name.includes('/') || name.includes('\0'))
        throw outside(name, 'dotdot', 'a file name in the folder, not a path');
      const file = await open(at(name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, fileMode);
      try {
        await giveOwner(file, owner);
        await file.writeFile(content);
      } finally {
        await file.close();
      }
    },
    close: () => held.close().catch(() => undefined), // closing a folder handle: nothing to lose if it is already closed
  };
}

interface Place {
  /** The last component ('' for the root itself). */
  readonly name: string;
  /** Workspace-relative path of the place, `/`-separated. */
  readonly relative: string;
  /** The components of the folder that holds `name`. */
  readonly folder: readonly string[];
  /** The workspace root's owner: what this process (when root) gives what it creates. */
  readonly owner: Owner;
  /** A path that reaches `entry` inside the held folder without resolving the folder's path again. */
  at(entry: string): string;
  close(): Promise<void>;
}

/**
 * Walks `input` from the root to its last component's folder, holding that folder open. Symlinks met on the way
 * (and, with `followLast`, the last component) are resolved textually and walked again from the root. Returns
 * `undefined` when a folder on the way is missing (and `create` is off).
 */
async function walk(root: string, input: string, create: boolean, followLast = true): Promise<Place | undefined> {
  checkInput(root, input);
  let pending = lexicalRelative(root, input).split('/').filter(Boolean);
  for (let links = 0; ; links++) {
    if (links > MAX_LINKS) throw outside(input, 'symlink', `more than ${MAX_LINKS} symlinks on the way`);
    const walked = await walkOnce(root, pending, create);
    if (walked === undefined) return undefined;
    if ('place' in walked) {
      const { place } = walked;
      if (!followLast || !place.name) return place;
      const info = await lstatIfThere(place.at(place.name));
      if (!info?.isSymbolicLink()) return place;
      const target = await readlink(place.at(place.name)).finally(() => place.close());
      pending = substitute(root, input, place.folder, target, []);
      continue;
    }
    pending = substitute(root, input, walked.folder, walked.target, walked.rest);
  }
}

type Walked = { place: Place } | { folder: string[]; target: string; rest: string[] } | undefined;

async function walkOnce(root: string, components: readonly string[], create: boolean): Promise<Walked> {
  let dir = await open(root, O_RDONLY | O_DIRECTORY);
  const folder: string[] = [];
  let owner: Owner;
  let made = false;
  const at = (handle: FileHandle, parts: readonly string[], entry: string) =>
    PROC_FD ? `/proc/self/fd/${handle.fd}/${entry}` : join(root, ...parts, entry);
  try {
    owner = await dir.stat();
    for (let i = 0; i < components.length - 1; ) {
      const name = components[i]!;
      let next: FileHandle;
      try {
        next = await open(at(dir, folder, name), DIR_FLAGS);
      } catch (error) {
        const code = errno(error);
        if (code === 'ENOENT') {
          if (!create) return undefined;
          made = await mkdir(at(dir, folder, name)).then(
            () => true,
            (e: unknown) => (errno(e) === 'EEXIST' ? false : Promise.reject(e)),
          );
          continue; // open what is there now (it may be a symlink a racer put there)
        }
        if (code !== 'ENOTDIR' && code !== 'ELOOP') throw error;
        const info = await lstatIfThere(at(dir, folder, name));
        if (info?.isSymbolicLink())
          return { folder: [...folder], target: await readlink(at(dir, folder, name)), rest: components.slice(i + 1) };
        if (!info) continue; // gone meanwhile: look again
        throw notAFile(join(...components), 'notFolder', error);
      }
      const previous = dir;
      dir = next; // held from here, so the finally below closes it if closing the previous one throws
      await previous.close();
      if (made) await giveOwner(dir, owner);
      made = false;
      folder.push(name);
      i++;
    }
    if (PROC_FD) await checkHeld(root, dir, components);
    const held = dir;
    const name = components[components.length - 1] ?? '';
    const parts = [...folder];
    dir = undefined as unknown as FileHandle; // handed over to the place
    return {
      place: {
        name,
        folder: parts,
        relative: [...parts, name].filter(Boolean).join('/'),
        owner,
        at: (entry) => (entry ? at(held, parts, entry) : PROC_FD ? `/proc/self/fd/${held.fd}` : join(root, ...parts)),
        close: () => held.close().catch(() => undefined), // closing a folder handle: nothing to lose if it is already closed
      },
    };
  } finally {
    await dir?.close().catch(() => undefined); // closing a folder handle: nothing to lose if it is already closed
  }
}

interface Owner {
  readonly uid: number;
  readonly gid: number;
}

const IS_ROOT = process.geteuid?.() === 0;

/** As root, gives a descriptor this process created the owner it should have (a no-op for root's own). */
async function giveOwner(handle: FileHandle, owner: Owner): Promise<void> {
  if (IS_ROOT && (owner.uid !== 0 || owner.gid !== 0)) await handle.chown(owner.uid, owner.gid);
}

/** Defence in depth: the folder held open must still be inside the root (a folder moved out while held is refused). */
async function checkHeld(root: string, dir: FileHandle, components: readonly string[]): Promise<void> {
  const real = await readlink(`/proc/self/fd/${dir.fd}`);
  if (!isInside(root, real))
    throw outside(components.join('/'), 'symlink', 'a folder on the way was moved out of the workspace');
}

/** The components after following a symlink found in `folder` whose text is `target`, then `rest`. */
function substitute(
  root: string,
  input: string,
  folder: readonly string[],
  target: string,
  rest: readonly string[],
): string[] {
  let base: string[];
  if (isAbsolute(target)) {
    const absolute = resolve(target);
    if (!isInside(root, absolute))
      throw outside(input, 'symlink', 'the path leads out of the workspace through a symlink');
    base = relative(root, absolute).split(sep).filter(Boolean);
  } else {
    base = [...folder];
    for (const part of target.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (!base.length) throw outside(input, 'symlink', 'the path leads out of the workspace through a symlink');
        base.pop();
      } else base.push(part);
    }
  }
  return [...base, ...rest];
}

function lexicalRelative(root: string, input: string): string {
  const joined = isAbsolute(input) ? resolve(input) : resolve(root, input);
  return posix.normalize(relative(root, joined).split(sep).join('/'));
}

/** The entry's lstat, or undefined when nothing is there (ENOENT); any other failure is thrown, not read as "missing". */
function lstatIfThere(path: string) {
  return lstat(path).catch((error: unknown) => (errno(error) === 'ENOENT' ? undefined : Promise.reject(error)));
}

function notAFile(path: string, what: 'folder' | 'other' | 'notFolder', cause?: unknown): ToolSearchError {
  const why =
    what === 'folder'
      ? 'is a folder, not a file'
      : what === 'other'
        ? 'is not a regular file'
        : 'has a file where a folder is expected';
  return new ToolSearchError(WorkspaceErrors.FILE_NOT_FOUND, `${path} ${why}`, {
    details: { path, kind: what },
    ...(cause ? { cause } : {}),
  });
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
