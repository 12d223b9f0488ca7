import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ToolSearchError } from '@tool-search/kernel';
import { parsePatch } from '@tool-search/plugin-fs';
import { codeOf, fsRun, textOf } from './fixtures.js';
import { FsErrors } from '../src/errors.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

async function setup() {
  const env = await fsRun({ applyPatch: { enabled: true } });
  close = env.close;
  return env;
}

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

describe('apply_patch', () => {
  it('adds, updates (several chunks), moves and deletes files in one patch', async () => {
    const { ws, run } = await setup();
    mkdirSync(join(ws, 'src'));
    writeFileSync(
      join(ws, 'src/app.ts'),
      ['function a() {', '  return 1;', '}', '', 'function b() {', '  return 2;', '}', ''].join('\n'),
    );
    writeFileSync(join(ws, 'old.txt'), 'old name\n');
    writeFileSync(join(ws, 'obsolete.txt'), 'bye\n');
    const input = patch(
      '*** Add File: docs/new.md',
      '+# New',
      '+text',
      '*** Update File: src/app.ts',
      '@@ function a() {',
      '-  return 1;',
      '+  return 10;',
      '@@ function b() {',
      '-  return 2;',
      '+  return 20;',
      '*** Update File: old.txt',
      '*** Move to: renamed/new-name.txt',
      '@@',
      '-old name',
      '+new name',
      '*** Delete File: obsolete.txt',
    );
    const out = textOf(await run.call('apply_patch', { input }));
    expect(out).toContain('A docs/new.md');
    expect(out).toContain('R old.txt -> renamed/new-name.txt');
    expect(readFileSync(join(ws, 'docs/new.md'), 'utf8')).toBe('# New\ntext\n');
    expect(readFileSync(join(ws, 'src/app.ts'), 'utf8')).toContain('return 10;\n}\n\nfunction b() {\n  return 20;');
    expect(readFileSync(join(ws, 'renamed/new-name.txt'), 'utf8')).toBe('new name\n');
    expect(existsSync(join(ws, 'old.txt'))).toBe(false);
    expect(existsSync(join(ws, 'obsolete.txt'))).toBe(false);
  });

  it('anchors a chunk at the end of the file with *** End of File', async () => {
    const { ws, run } = await setup();
    writeFileSync(join(ws, 'list.txt'), 'x\ny\nx\n');
    await run.call('apply_patch', {
      input: patch('*** Update File: list.txt', '@@', ' y', '-x', '+z', '*** End of File'),
    });
    expect(readFileSync(join(ws, 'list.txt'), 'utf8')).toBe('x\ny\nz\n');
  });

  it('a failing file in a multi-file patch changes nothing (all or nothing)', async () => {
    const { ws, run } = await setup();
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    const input = patch(
      '*** Update File: a.txt',
      '@@',
      '-a',
      '+A',
      '*** Add File: b.txt',
      '+b',
      '*** Update File: c.txt',
      '@@',
      '-c',
      '+C',
    );
    expect(codeOf(await run.call('apply_patch', { input }))).toBe(FsErrors.PATCH_CONFLICT);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('a\n');
    expect(existsSync(join(ws, 'b.txt'))).toBe(false);
  });

  it('a write that fails halfway through is rolled back (the files already written are restored)', async () => {
    const { ws, run } = await setup();
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    writeFileSync(join(ws, 'blocker'), 'a file where a folder is needed\n');
    const input = patch(
      '*** Update File: a.txt',
      '@@',
      '-a',
      '+A',
      '*** Add File: fresh.txt',
      '+new',
      '*** Add File: blocker/inside.txt',
      '+x',
    );
    expect((await run.call('apply_patch', { input })).status).toBe('error');
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('a\n');
    expect(existsSync(join(ws, 'fresh.txt'))).toBe(false);
    expect(readFileSync(join(ws, 'blocker'), 'utf8')).toBe('a file where a folder is needed\n');
  });

  it('context that is not in the file is PATCH_CONFLICT', async () => {
    const { ws, run } = await setup();
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    expect(codeOf(await run.call('apply_patch', { input: patch('*** Update File: a.txt', '@@', '-nope', '+x') }))).toBe(
      FsErrors.PATCH_CONFLICT,
    );
    expect(codeOf(await run.call('apply_patch', { input: patch('*** Add File: a.txt', '+again') }))).toBe(
      FsErrors.PATCH_CONFLICT,
    );
    expect(codeOf(await run.call('apply_patch', { input: patch('*** Delete File: missing.txt') }))).toBe(
      FsErrors.PATCH_CONFLICT,
    );
  });

  it('a malformed envelope is PATCH_INVALID with the line', async () => {
    const { run } = await setup();
    for (const input of [
      '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b',
      patch('*** Frobnicate File: x'),
      patch('*** Add File: x', 'no plus'),
      '*** Begin Patch\n*** Add File: x\n+x',
    ]) {
      expect(codeOf(await run.call('apply_patch', { input }))).toBe(FsErrors.PATCH_INVALID);
    }
    try {
      parsePatch(patch('*** Add File: x', '+ok', 'bad'));
    } catch (error) {
      expect((error as ToolSearchError).details).toEqual({ line: 4 });
    }
  });

  it('tolerates trailing whitespace differences in context lines', async () => {
    const { ws, run } = await setup();
    writeFileSync(join(ws, 'ws.txt'), 'keep   \nold\n');
    await run.call('apply_patch', { input: patch('*** Update File: ws.txt', '@@', ' keep', '-old', '+new') });
    expect(readFileSync(join(ws, 'ws.txt'), 'utf8')).toBe('keep   \nnew\n');
  });
});
