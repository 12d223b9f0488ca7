/**
 * `upload` against a process in the workspace (what a concurrent `exec` could run) that swaps the file being
 * uploaded for a symlink to a file outside, as fast as it can. Checking the path and handing it to Chromium leaves a
 * window (Chromium opens it when the page reads it); the file is therefore read once through the fd-relative walk and
 * Chromium gets a private copy, so what the page reads is never the outside file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '@tool-search/kernel';
import { raceFolders } from '@tool-search/testing';
import { browserRun, chromiumMissing, errorCode, html, ok, serve, tempDir, type TestServer } from './helpers.js';

const INSIDE = 'inside the workspace';
const OUTSIDE = 'SECRET from outside!';
const UPLOADS = 300;
const runnable = !chromiumMissing('the upload race test');

/**
 * Swaps `<workspace>/f.txt` between a file (a hard link of `.keep`: same inode, same times each round) and a symlink
 * to `<outside>/f.txt` (same size and times too, so Chromium's snapshot check cannot tell them apart), each by an
 * atomic rename, so the name always exists.
 */
const FILE_RACER = `
const { linkSync, renameSync, symlinkSync } = require('node:fs');
const [ws, outside] = process.argv.slice(1);
process.send('ready');
for (;;) {
  try { linkSync(ws + '/.keep', ws + '/.in'); renameSync(ws + '/.in', ws + '/f.txt'); } catch {}
  try { symlinkSync(outside + '/f.txt', ws + '/.ln'); renameSync(ws + '/.ln', ws + '/f.txt'); } catch {}
}`;

let server: TestServer;
let run: Run;
let racer: ChildProcess | undefined;
const folders = raceFolders('browser-upload');

beforeAll(async () => {
  if (!runnable) return;
  writeFileSync(join(folders.workspace, '.keep'), INSIDE);
  writeFileSync(join(folders.workspace, 'f.txt'), INSIDE);
  writeFileSync(join(folders.outside, 'f.txt'), OUTSIDE);
  const { atime, mtime } = statSync(join(folders.workspace, '.keep'));
  utimesSync(join(folders.outside, 'f.txt'), atime, mtime);
  server = await serve({
    '/upload': html(`<input type="file" id="file" aria-label="File">`, 'Upload'),
  });
  run = await browserRun({
    browser: { allowPrivate: true },
    stateDir: tempDir('upload-race'),
    workspace: folders.workspace,
  });
  ok(await run.call('browser', { action: 'start' }));
  ok(await run.call('browser', { action: 'open', targetUrl: `${server.origin}/upload` }));
}, 90_000);
afterEach(() => {
  racer?.kill('SIGKILL');
});
afterAll(async () => {
  await run?.close();
  await server?.close();
});

describe.skipIf(!runnable)('upload under a symlink race', () => {
  it(`the page never reads the outside file (${UPLOADS} uploads while f.txt is swapped)`, async () => {
    racer = spawn(process.execPath, ['-e', FILE_RACER, folders.workspace, folders.outside], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    await new Promise((resolve) => racer!.once('message', resolve));
    const read: string[] = [];
    for (let i = 0; i < UPLOADS; i++) {
      const outcome = await run.call('browser', { action: 'upload', element: '#file', paths: ['f.txt'] });
      if (outcome.status !== 'ok') {
        expect(errorCode(outcome)).toBe('BROWSER_UPLOAD_PATH_INVALID');
        continue;
      }
      // What the page gets when it reads the file it was given (Chromium opens the file only now).
      const fn = `() => document.getElementById('file').files[0].text().catch((error) => 'unreadable: ' + error.name)`;
      read.push(String(ok(await run.call('browser', { action: 'act', request: { kind: 'evaluate', fn } })).result));
    }
    racer.kill('SIGKILL');
    expect(read.filter((text) => text === OUTSIDE)).toEqual([]);
    expect(read.filter((text) => text === INSIDE).length).toBeGreaterThan(0);
  }, 240_000);
});
