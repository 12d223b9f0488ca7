/**
 * Atomic writes: the content goes to a temp file beside the target, then a
 * rename replaces the target in one step, so a reader never sees half a file
 * and a failed write leaves the old file as it was. An existing file keeps its
 * mode (and, when this process is root, its owner; a new file takes its
 * folder's owner, as the workspace's confined writes do). The temp file is
 * created exclusively (`wx`), never through a symlink, and owned through its
 * descriptor.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const existing = await stat(path).catch(() => undefined); // nothing there (or not reachable): a new file
  const mode = existing ? existing.mode & 0o7777 : undefined;
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      if (process.geteuid?.() === 0) {
        const owner = existing ?? (await stat(dirname(path)));
        if (owner.uid !== 0 || owner.gid !== 0) await handle.chown(owner.uid, owner.gid);
      }
      await handle.writeFile(content);
      if (mode !== undefined) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
