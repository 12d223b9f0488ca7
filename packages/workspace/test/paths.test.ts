import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { resolveInWorkspace, workspaceRoot } from '@tool-search/workspace';
import { WorkspaceErrors } from '../src/errors.js';

function setup() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'ws-paths-')));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  writeFileSync(join(root, 'src', 'a.txt'), 'a');
  return { root: workspaceRoot(root), outside };
}

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return { code: (error as { code?: string }).code, rule: (error as { details?: { rule?: string } }).details?.rule };
  }
  return undefined;
};

describe('resolveInWorkspace', () => {
  it('resolves relative paths, inner .. and absolute paths inside the workspace', () => {
    const { root } = setup();
    expect(resolveInWorkspace(root, 'src/a.txt')).toMatchObject({
      absolute: join(root, 'src/a.txt'),
      relative: 'src/a.txt',
      exists: true,
    });
    expect(resolveInWorkspace(root, 'src/../src/a.txt').relative).toBe('src/a.txt');
    expect(resolveInWorkspace(root, join(root, 'new/file.txt'))).toMatchObject({
      relative: 'new/file.txt',
      exists: false,
    });
  });

  it('refuses .. that climbs out', () => {
    const { root } = setup();
    expect(refusal(() => resolveInWorkspace(root, '../outside/secret.txt'))).toEqual({
      code: WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
      rule: 'dotdot',
    });
    expect(refusal(() => resolveInWorkspace(root, 'src/../../x'))).toEqual({
      code: WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
      rule: 'dotdot',
    });
  });

  it('refuses absolute paths outside', () => {
    const { root } = setup();
    expect(refusal(() => resolveInWorkspace(root, '/etc/passwd'))).toEqual({
      code: WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
      rule: 'absolute',
    });
  });

  it('refuses a symlinked file that points out', () => {
    const { root, outside } = setup();
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    expect(refusal(() => resolveInWorkspace(root, 'link.txt'))).toEqual({
      code: WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
      rule: 'symlink',
    });
  });

  it('refuses a path below a symlinked parent folder that points out, for existing and new files', () => {
    const { root, outside } = setup();
    symlinkSync(outside, join(root, 'out'));
    expect(refusal(() => resolveInWorkspace(root, 'out/secret.txt'))).toEqual({
      code: WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
      rule: 'symlink',
    });
    expect(refusal(() => resolveInWorkspace(root, 'out/deeper/new.txt'))).toEqual({
      code: WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
      rule: 'symlink',
    });
  });

  it('refuses a dangling symlink whose target is outside (a write would create it there)', () => {
    const { root, outside } = setup();
    symlinkSync(join(outside, 'created-by-write.txt'), join(root, 'dangling'));
    expect(refusal(() => resolveInWorkspace(root, 'dangling'))).toEqual({
      code: WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
      rule: 'symlink',
    });
  });

  it('follows a symlink that stays inside', () => {
    const { root } = setup();
    symlinkSync(join(root, 'src'), join(root, 'alias'));
    expect(resolveInWorkspace(root, 'alias/a.txt').relative).toBe('src/a.txt');
  });

  it('refuses an empty path and a missing workspace', () => {
    const { root } = setup();
    expect(refusal(() => resolveInWorkspace(root, ''))).toEqual({
      code: WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
      rule: 'empty',
    });
    expect(refusal(() => resolveInWorkspace(root, 'src/a.txt\0../../x'))).toEqual({
      code: WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
      rule: 'nul',
    });
    expect(refusal(() => workspaceRoot(join(root, 'nope')))?.code).toBe(ErrorCode.OPTIONS_INVALID);
  });
});
