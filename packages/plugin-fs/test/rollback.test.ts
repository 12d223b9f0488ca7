import { describe, expect, it } from 'vitest';
import { parsePatch } from '@tool-search/plugin-fs';
import { applyPatchOps, type PatchFiles } from '../src/patch-apply.js';
import { FsErrors } from '../src/errors.js';

/** The package's own file seam over a Map; `failWrites` names keys whose writes fail (a full disk, a vanished folder). */
function memoryFiles(
  initial: Record<string, string>,
  failWrites: (key: string, content: string) => boolean,
): PatchFiles & { files: Map<string, string> } {
  const files = new Map(Object.entries(initial));
  return {
    files,
    key: (path) => path,
    read: async (key) => files.get(key) ?? null,
    write: async (key, content) => {
      if (failWrites(key, content))
        throw Object.assign(new Error(`ENOSPC: no space left on device, write '${key}'`), { code: 'ENOSPC' });
      files.set(key, content);
    },
    remove: async (key) => void files.delete(key),
  };
}

const patch = [
  '*** Begin Patch',
  '*** Update File: a.txt',
  '@@',
  '-one',
  '+ONE',
  '*** Update File: b.txt',
  '@@',
  '-two',
  '+TWO',
  '*** End Patch',
].join('\n');

describe('apply_patch rollback', () => {
  it('restores the files already written when a later write fails, and rethrows that failure', async () => {
    const disk = memoryFiles({ 'a.txt': 'one\n', 'b.txt': 'two\n' }, (key) => key === 'b.txt');
    const error = await applyPatchOps(parsePatch(patch), disk).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('ENOSPC');
    expect(Object.fromEntries(disk.files)).toEqual({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
  });

  it('says which files keep the patch when the restore fails too (PATCH_ROLLBACK_FAILED), keeping the write failure as cause', async () => {
    // b.txt cannot be written, and neither can a.txt once it holds the patch: the restore of a.txt fails.
    const disk = memoryFiles(
      { 'a.txt': 'one\n', 'b.txt': 'two\n' },
      (key, content) => key === 'b.txt' || (key === 'a.txt' && content === 'one\n'),
    );
    const error = await applyPatchOps(parsePatch(patch), disk).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: FsErrors.PATCH_ROLLBACK_FAILED, details: { unrestored: [{ path: 'a.txt' }] } });
    expect(((error as Error).cause as { code?: string }).code).toBe('ENOSPC');
    expect(disk.files.get('a.txt')).toBe('ONE\n');
  });
});
