/**
 * The command line of a sandbox child. The permission model is on with no
 * grants except reading the entry file itself: no file system, no child
 * processes, no workers, no addons. `--permission` is stable from Node 22.13
 * / 23.5; Node 20 has `--experimental-permission`. No `--frozen-intrinsics`:
 * it doubled the start-up time; child.cjs deep-freezes the same intrinsics
 * itself before it says it is ready (tested in test/sandbox.test.ts).
 */
import { fileURLToPath } from 'node:url';

/** The child entry, next to this file in src and (copied by the build) in dist. */
export const CHILD_ENTRY = fileURLToPath(new URL('./child.cjs', import.meta.url));

export type PermissionFlag = '--permission' | '--experimental-permission';

/** Which permission flag this Node version takes, or `undefined` when it has none. */
export function permissionFlag(version: string = process.versions.node): PermissionFlag | undefined {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (major > 23 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13)) return '--permission';
  if (major >= 20) return '--experimental-permission';
  return undefined;
}

export interface SandboxCommand {
  readonly execPath: string;
  readonly args: readonly string[];
}

/** Builds the child's arguments; throws (with the reason) when this runtime cannot isolate a child. */
export function sandboxCommand(memoryMb: number, entry: string = CHILD_ENTRY): SandboxCommand {
  const flag = permissionFlag();
  if (!flag) throw new Error(`Node ${process.versions.node} has no permission model (needs Node 20 or later)`);
  // Node 20 splits --allow-fs-read on commas and treats a trailing * as a wildcard:
  // such a path would grant more than the one file.
  if (/[,*]/.test(entry))
    throw new Error(`the sandbox entry path ${entry} contains "," or "*", which the permission model would widen`);
  return {
    execPath: process.execPath,
    args: [
      flag,
      `--allow-fs-read=${entry}`,
      '--no-addons',
      '--disallow-code-generation-from-strings',
      '--no-warnings',
      `--max-old-space-size=${Math.max(8, Math.floor(memoryMb))}`,
      // A young generation that holds start-up and a short run without a scavenge (one, ~0.5 ms, at 1 MiB).
      '--min-semi-space-size=4',
      entry,
    ],
  };
}
