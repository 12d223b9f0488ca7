/**
 * Issue 40: a process inside the workspace (what a concurrent `exec` could run) swaps `.openclaw/attachments` for a
 * symlink to outside as fast as it can while `sessions_spawn` writes attachments. The former check-then-mkdir landed
 * some folders outside (1 of 400 reported); the fd-relative walk with exclusive creates must land none. The racer runs
 * as root and, where the tests run as root, as uid 65534 (an unprivileged agent racing a root gateway).
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolSearchError } from '@tool-search/kernel';
import { raceFolders, startSymlinkRacer, type SymlinkRacer } from '@tool-search/testing';
import { confinedAccessIsRaceFree } from '@tool-search/workspace';
import { DEFAULT_ATTACHMENT_LIMITS, materialize } from '../src/attachments.js';

const SPAWNS = 2000;
const UNPRIVILEGED = 65534;
const CAN_DROP = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;

let racer: SymlinkRacer | undefined;
afterEach(() => racer?.stop());

if (!confinedAccessIsRaceFree)
  console.warn(
    'skipping the attachment symlink race test: /proc/self/fd is not available, so access is not fd-relative',
  );
if (!CAN_DROP)
  console.warn(
    'skipping the unprivileged attachment race: it needs root to drop the racer to uid 65534 with setpriv (util-linux)',
  );

const cases: [string, number | undefined][] = [
  ['root', undefined],
  ...(CAN_DROP ? ([['uid 65534', UNPRIVILEGED]] as [string, number][]) : []),
];

function clearParked(workspace: string): void {
  try {
    rmSync(join(workspace, '.openclaw', 'parked'), { recursive: true, force: true });
  } catch {
    // The racer moved something in meanwhile: the next spawn's pass clears it.
  }
}

describe.skipIf(!confinedAccessIsRaceFree)('attachments under a racer swapping their folder for a symlink', () => {
  it.each(cases)(
    'a racer running as %s lands none of the spawns outside the workspace',
    async (_who, uid) => {
      const { workspace, outside } = raceFolders('spawn-attach-race');
      mkdirSync(join(workspace, '.openclaw', 'attachments'), { recursive: true });
      if (uid !== undefined)
        for (const dir of [
          workspace,
          join(workspace, '.openclaw'),
          join(workspace, '.openclaw', 'attachments'),
          outside,
        ])
          chownSync(dir, uid, uid);
      racer = await startSymlinkRacer(workspace, outside, {
        folder: '.openclaw/attachments',
        parked: '.openclaw/parked',
        ...(uid !== undefined ? { uid } : {}),
      });
      const limits = { ...DEFAULT_ATTACHMENT_LIMITS, enabled: true };
      const outcomes: Record<string, number> = {};
      for (let i = 0; i < SPAWNS; i++) {
        const files = [
          { name: 'notes.txt', content: `spawn ${i}` },
          { name: 'data.bin', content: 'AAEC', encoding: 'base64' as const },
        ];
        const key = await materialize(workspace, files, limits).then(
          () => 'ok',
          (error: unknown) => (ToolSearchError.isInstance(error) ? error.code : (error as NodeJS.ErrnoException).code),
        );
        outcomes[String(key)] = (outcomes[String(key)] ?? 0) + 1;
        // The unprivileged racer cannot delete the root-owned 0700 folders it parks: clear them, so it keeps swapping.
        if (uid !== undefined) clearParked(workspace);
      }
      racer.stop();
      expect(readdirSync(outside)).toEqual([]);
      // Every spawn answered with a receipt or an error with a code, and some got through.
      expect(Object.keys(outcomes).every((key) => /^[A-Z_]+$/.test(key) || key === 'ok')).toBe(true);
      expect(outcomes.ok ?? 0).toBeGreaterThan(0);
      console.log(`attachment race as ${_who}: ${JSON.stringify(outcomes)}`);
    },
    600_000,
  );
});
