/**
 * Paths a model gives are resolved inside one workspace folder. Refused, with
 * PATH_OUTSIDE_WORKSPACE and `details.rule`:
 * - `dotdot`   a relative path whose `..` climbs out of the workspace
 * - `absolute` an absolute path outside the workspace
 * - `symlink`  a path whose existing part (the file, or any parent folder)
 *              resolves through a symlink to somewhere outside
 * - `empty`, `nul` no path, or one with a NUL byte
 * The returned path has every existing component resolved (realpath), so the
 * caller acts on the place that was checked, not on a name that points away.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { WorkspaceErrors } from './errors.js';

export type PathRule = 'dotdot' | 'absolute' | 'symlink' | 'empty' | 'nul';

export interface WorkspacePath {
  /** Real absolute path (existing components resolved). */
  readonly absolute: string;
  /** Relative to the workspace root, with `/` separators ('' for the root itself). */
  readonly relative: string;
  /** Whether something exists at the path now. */
  readonly exists: boolean;
}

/** The workspace root as a real path; throws OPTIONS_INVALID when it is not an existing folder. */
export function workspaceRoot(folder: string): string {
  try {
    const real = realpathSync(resolve(folder));
    if (!lstatSync(real).isDirectory()) throw new Error('not a folder');
    return real;
  } catch (error) {
    throw new ToolSearchError(
      ErrorCode.OPTIONS_INVALID,
      `The workspace ${folder} is not an existing folder; set plugins.core.workspace to one`,
      {
        cause: error,
        details: { workspace: folder },
      },
    );
  }
}

/** Resolves `input` inside `root` (a real path from `workspaceRoot`) or throws PATH_OUTSIDE_WORKSPACE. */
export function resolveInWorkspace(root: string, input: string): WorkspacePath {
  const joined = checkInput(root, input);
  const { real, exists } = realOfDeepestExisting(joined);
  if (!isInside(root, real)) throw outside(input, 'symlink', 'the path leads out of the workspace through a symlink');
  return { absolute: real, relative: relative(root, real).split(sep).join('/'), exists };
}

/** The lexical checks (empty, NUL, `..` out, absolute outside); returns the joined absolute path. */
export function checkInput(root: string, input: string): string {
  if (typeof input !== 'string' || input.trim() === '') throw outside(input, 'empty', 'the path is empty');
  if (input.includes('\0')) throw outside(input, 'nul', 'the path contains a NUL byte');
  const joined = isAbsolute(input) ? resolve(input) : resolve(root, input);
  if (!isInside(root, joined)) {
    throw isAbsolute(input)
      ? outside(input, 'absolute', `the absolute path is outside the workspace ${root}`)
      : outside(input, 'dotdot', 'the path climbs out of the workspace with ..');
  }
  return joined;
}

/** `candidate` is `root` or below it (both absolute, normalized). */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Resolves the existing prefix of `path` through symlinks and appends the missing rest. */
function realOfDeepestExisting(path: string, hops = 0): { real: string; exists: boolean } {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = realpathSync(current);
      return { real: missing.length ? join(real, ...missing.reverse()) : real, exists: missing.length === 0 };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A dangling symlink: a write would follow it, so judge where it points (bounded, like the OS's ELOOP).
      if (code === 'ENOENT' && isSymlink(current) && hops < 40) {
        const target = realOfDeepestExisting(resolve(dirname(current), readlinkSync(current)), hops + 1).real;
        return { real: missing.length ? join(target, ...missing.reverse()) : target, exists: false };
      }
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const parent = dirname(current);
      if (parent === current) return { real: path, exists: false };
      missing.push(basename(current));
      current = parent;
    }
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

export function outside(input: unknown, rule: PathRule, why: string): ToolSearchError {
  return new ToolSearchError(
    WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    `Refused path ${JSON.stringify(input)}: ${why} (rule ${rule})`,
    {
      details: { path: input, rule },
    },
  );
}
