// Every way out of the workspace a model could try, through every file tool. Each test fails if the escape works.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { codeOf, fsRun } from './fixtures.js';
import { WorkspaceErrors } from '@tool-search/workspace';

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

async function setup(workspaceOnly = true) {
  const env = await fsRun({ applyPatch: { enabled: true, workspaceOnly } });
  close = env.close;
  writeFileSync(join(env.outside, 'secret.txt'), 'SECRET');
  return env;
}

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

describe('path escapes are refused with PATH_OUTSIDE_WORKSPACE', () => {
  it('.. out of the workspace, for read, write and edit', async () => {
    const { run, outside } = await setup();
    expect(codeOf(await run.call('read', { path: '../outside/secret.txt' }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    expect(codeOf(await run.call('write', { path: '../outside/new.txt', content: 'x' }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    expect(codeOf(await run.call('edit', { path: '../outside/secret.txt', oldText: 'SECRET', newText: 'PWNED' }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('SECRET');
  });

  it('an absolute path outside the workspace', async () => {
    const { run, outside } = await setup();
    expect(codeOf(await run.call('read', { path: join(outside, 'secret.txt') }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    expect(codeOf(await run.call('write', { path: join(outside, 'abs.txt'), content: 'x' }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    expect(existsSync(join(outside, 'abs.txt'))).toBe(false);
  });

  it('a symlink in the workspace that points out', async () => {
    const { run, ws, outside } = await setup();
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'innocent.txt'));
    expect(codeOf(await run.call('read', { path: 'innocent.txt' }))).toBe(WorkspaceErrors.PATH_OUTSIDE_WORKSPACE);
    expect(codeOf(await run.call('write', { path: 'innocent.txt', content: 'PWNED' }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    expect(codeOf(await run.call('edit', { path: 'innocent.txt', oldText: 'SECRET', newText: 'PWNED' }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('SECRET');
  });

  it('a symlinked parent folder that points out (existing file and new file below it)', async () => {
    const { run, ws, outside } = await setup();
    mkdirSync(join(ws, 'src'));
    symlinkSync(outside, join(ws, 'src', 'vendor'));
    expect(codeOf(await run.call('read', { path: 'src/vendor/secret.txt' }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    expect(codeOf(await run.call('write', { path: 'src/vendor/sub/dropped.txt', content: 'x' }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    expect(existsSync(join(outside, 'sub'))).toBe(false);
  });

  it('a dangling symlink that a write would follow out', async () => {
    const { run, ws, outside } = await setup();
    symlinkSync(join(outside, 'planted.txt'), join(ws, 'planted.txt'));
    expect(codeOf(await run.call('write', { path: 'planted.txt', content: 'x' }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
  });

  it('apply_patch: add, update, delete and move outside, and a mixed patch changes nothing', async () => {
    const { run, ws, outside } = await setup();
    writeFileSync(join(ws, 'keep.txt'), 'keep\n');
    const attempts = [
      patch('*** Add File: ../outside/added.txt', '+x'),
      patch(`*** Update File: ${join(outside, 'secret.txt')}`, '@@', '-SECRET', '+PWNED'),
      patch('*** Delete File: ../outside/secret.txt'),
      patch('*** Update File: keep.txt', '*** Move to: ../outside/moved.txt', '@@', '-keep', '+moved'),
      patch('*** Add File: fine.txt', '+fine', '*** Add File: ../outside/second.txt', '+x'),
    ];
    for (const input of attempts)
      expect(codeOf(await run.call('apply_patch', { input }))).toBe(WorkspaceErrors.PATH_OUTSIDE_WORKSPACE);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('SECRET');
    expect(readFileSync(join(ws, 'keep.txt'), 'utf8')).toBe('keep\n');
    for (const name of ['added.txt', 'moved.txt', 'second.txt']) expect(existsSync(join(outside, name))).toBe(false);
    expect(existsSync(join(ws, 'fine.txt'))).toBe(false);
  });

  it('apply_patch through a symlinked folder that points out', async () => {
    const { run, ws, outside } = await setup();
    symlinkSync(outside, join(ws, 'link'));
    expect(codeOf(await run.call('apply_patch', { input: patch('*** Add File: link/evil.txt', '+x') }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    expect(existsSync(join(outside, 'evil.txt'))).toBe(false);
  });

  it('apply_patch may leave the workspace only when workspaceOnly is false', async () => {
    const { run, outside } = await setup(false);
    const outcome = await run.call('apply_patch', { input: patch('*** Add File: ../outside/allowed.txt', '+ok') });
    expect(outcome.status).toBe('ok');
    expect(readFileSync(join(outside, 'allowed.txt'), 'utf8')).toBe('ok\n');
  });
});
