/**
 * Removes a profile's folder. Its user data belongs to the user Chromium runs as, which can swap a folder inside it
 * for a symlink while the removal walks it; Node's `rmSync` (Node 20) then follows the link and, as root, deleted a
 * root-owned folder outside (1 round in 25, measured). coreutils' `rm -rf` walks with `openat` and `O_NOFOLLOW`
 * (fts), so a swapped-in link is removed as a link, never followed; `--one-file-system` keeps it off other mounts.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { ToolSearchError } from '@tool-search/kernel';
import { BrowserErrors } from './errors.js';

const run = promisify(execFile);

export async function removeProfileFolder(dir: string): Promise<void> {
  // Windows has no other user for Chromium (and no coreutils): nothing swaps the folder there.
  if (process.platform === 'win32') return rm(dir, { recursive: true, force: true });
  try {
    await run('rm', ['-rf', '--one-file-system', '--', dir]);
  } catch (error) {
    throw new ToolSearchError(BrowserErrors.BROWSER_ACTION_FAILED, `could not remove the profile folder ${dir}`, {
      cause: error,
      details: { path: dir, rule: 'remove-profile' },
    });
  }
}
