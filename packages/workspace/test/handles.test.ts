// Every handle the confined walk opens is closed on its error paths too, not left to the garbage collector (which
// warns, and closes it whenever it runs: a descriptor held open meanwhile).
import { existsSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

if (!existsSync('/proc/self/fd')) console.warn('skipping the open-handle check: it reads /proc/self/fd (Linux)');
import { openInWorkspace } from '@tool-search/workspace';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'ws-handles-')));
writeFileSync(join(root, 'a.txt'), 'a');

afterEach(() => vi.restoreAllMocks());

/** The prototype every FileHandle shares (the class itself is not exported by node:fs/promises). */
async function fileHandlePrototype() {
  const probe = await open(join(root, 'a.txt'));
  await probe.close();
  return Object.getPrototypeOf(probe) as { stat: () => Promise<unknown> };
}

/** What this process holds open inside the root (Linux: /proc/self/fd). */
function openInside(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(root) ? [target] : [];
    } catch {
      return []; // the descriptor readdir itself used, gone by now
    }
  });
}

describe('openInWorkspace', () => {
  it.skipIf(!existsSync('/proc/self/fd'))('closes the file it opened when stat fails on it', async () => {
    const proto = await fileHandlePrototype();
    vi.spyOn(proto, 'stat').mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    expect(openInside()).toEqual([]);
    await expect(openInWorkspace(root, 'a.txt')).rejects.toMatchObject({ code: 'EIO' });
    // Neither the walk's folder nor the file is still open (before the fix the file stayed open until a GC).
    expect(openInside()).toEqual([]);
  });
});
