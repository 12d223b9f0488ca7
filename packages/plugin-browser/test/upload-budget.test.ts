/**
 * `upload` copies workspace files for Chromium, and the copies live as long as the browser. A sparse file costs the
 * workspace nothing (`truncate -s 1T`), but its copy was written out in full: one upload could fill the host's disk
 * with zeros, and every upload added more. The copies one browser holds are now bounded (MAX_UPLOAD_BYTES), charged
 * as they are written. No Chromium is needed: this is the copy the tool hands it.
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserErrors } from '../src/errors.js';
import { MAX_UPLOAD_BYTES, UploadCopies } from '../src/uploads.js';

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'browser-upload-budget-')));
const uploadFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('tool-search-browser-upload-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/** A sparse file of `bytes` bytes (no disk used). */
function sparse(name: string, bytes: number): string {
  writeFileSync(join(workspace, name), '');
  truncateSync(join(workspace, name), bytes);
  return name;
}

const code = (error: unknown) => (error as { code?: string }).code;

describe('upload copies against sparse files', () => {
  it.each([
    ['one byte past the bound', MAX_UPLOAD_BYTES + 1],
    ['a terabyte', 2 ** 40],
  ])('refuses a sparse file of %s before writing it', async (_name, bytes) => {
    const copies = new UploadCopies();
    const before = new Set(uploadFolders());
    const error = await copies.copy(workspace, [sparse('big.bin', bytes)]).catch((e: unknown) => e);
    expect(code(error)).toBe(BrowserErrors.BROWSER_UPLOAD_TOO_LARGE);
    await copies.remove();
    expect(uploadFolders().filter((name) => !before.has(name))).toEqual([]);
  });

  it('bounds the copies one browser holds, all uploads together, until it closes', async () => {
    const copies = new UploadCopies();
    const half = sparse('half.bin', MAX_UPLOAD_BYTES / 2 + 1);
    await copies.copy(workspace, [half]);
    expect(code(await copies.copy(workspace, [half]).catch((e: unknown) => e))).toBe(
      BrowserErrors.BROWSER_UPLOAD_TOO_LARGE,
    );
    // Copies made at once share the bound too.
    const other = new UploadCopies();
    expect(code(await other.copy(workspace, [half, half]).catch((e: unknown) => e))).toBe(
      BrowserErrors.BROWSER_UPLOAD_TOO_LARGE,
    );
    await other.remove();
    await copies.remove();
    const [copy] = await copies.copy(workspace, [half]);
    expect(copy?.relative).toBe(half);
    await copies.remove();
  }, 120_000);
});
