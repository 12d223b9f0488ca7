/**
 * Atomic writes: the content goes to a temp file beside the target, then a
 * rename replaces the target in one step, so a reader never sees half a file
 * and a failed write leaves the old file as it was. An existing file keeps its
 * mode. The temp file is created exclusively (`wx`), never through a symlink.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const mode = await stat(path).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  try {
    await writeFile(temp, content, { flag: 'wx', ...(mode !== undefined ? { mode } : {}) });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
