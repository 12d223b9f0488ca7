/**
 * What bounds a Node child beyond its own flags, where the platform gives a
 * way (checked once per process):
 * - Linux with util-linux `setpriv`: `--pdeathsig KILL`, so the kernel kills
 *   the child when its parent dies, even by SIGKILL and even while the code spins;
 * - Linux with util-linux `prlimit`: an address-space limit (`RLIMIT_AS`), a
 *   hard ceiling on all the child's memory, V8 heap or not (Node reserves
 *   ~1 GiB of address space at start, so the ceiling is generous; the RSS
 *   watchdog in process.ts holds the tighter bound);
 * - Linux with util-linux `unshare` and network namespaces for us (root, or
 *   unprivileged user namespaces allowed): a network namespace of its own, so
 *   the child has no network by construction (only a loopback that is down),
 *   whatever its code reaches: Node 20's permission model has no network
 *   switch. With `--user` where that works (a root gateway's child then has no
 *   capabilities on this machine either), else `--net` alone (root).
 * Elsewhere the command runs as is (the RSS watchdog and the parent's signal
 * handlers remain; README, "Not covered").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { SandboxCommand } from './node-flags.js';

export interface Launcher {
  readonly pdeathsig: boolean;
  readonly addressSpaceLimit: boolean;
  /** `none`: the child runs in a network namespace of its own; `host`: it shares this machine's network. */
  readonly network: 'none' | 'host';
}

interface Tools {
  setpriv?: string;
  prlimit?: string;
  /** `unshare` and the flags that gave a child its own network namespace here. */
  unshare?: readonly string[];
}

let detected: Tools | undefined;

export function launcher(): Launcher {
  const tools = detect();
  return {
    pdeathsig: tools.setpriv !== undefined,
    addressSpaceLimit: tools.prlimit !== undefined,
    network: tools.unshare ? 'none' : 'host',
  };
}

/** Address-space ceiling of a child: never under 2 GiB (Node's own reservations), else 16× the heap limit. */
export function addressSpaceBytes(memoryMb: number): number {
  return Math.max(2048, memoryMb * 16) * 1024 * 1024;
}

export function launch(command: SandboxCommand, memoryMb: number): SandboxCommand {
  const tools = detect();
  let execPath = command.execPath;
  let args = [...command.args];
  if (tools.setpriv) [execPath, args] = [tools.setpriv, ['--pdeathsig', 'KILL', '--', execPath, ...args]];
  // Outside setpriv: entering a user namespace changes credentials, which clears a parent-death signal set before.
  if (tools.unshare) [execPath, args] = [tools.unshare[0]!, [...tools.unshare.slice(1), '--', execPath, ...args]];
  if (tools.prlimit) [execPath, args] = [tools.prlimit, [`--as=${addressSpaceBytes(memoryMb)}`, execPath, ...args]];
  return { execPath, args };
}

/** Absolute paths (the child's environment is empty: no PATH to search). */
function detect(): Tools {
  if (detected) return detected;
  detected = {};
  if (process.platform !== 'linux') return detected;
  const setpriv = find('setpriv');
  if (setpriv && spawnSync(setpriv, ['--help'], { encoding: 'utf8', timeout: 5000 }).stdout?.includes('--pdeathsig'))
    detected.setpriv = setpriv;
  const prlimit = find('prlimit');
  if (prlimit && spawnSync(prlimit, ['--as=4294967296', process.execPath, '-e', '0'], { timeout: 10_000 }).status === 0)
    detected.prlimit = prlimit;
  const unshare = find('unshare');
  if (unshare) {
    // The child must really be in another network namespace: compare, do not trust the exit status alone.
    const own = readNetNamespace('self');
    const check = `process.stdout.write(require('fs').readlinkSync('/proc/self/ns/net'))`;
    for (const flags of [['--user', '--net'], ['--net']]) {
      const probe = spawnSync(unshare, [...flags, '--', process.execPath, '-e', check], {
        encoding: 'utf8',
        timeout: 10_000,
      });
      if (probe.status === 0 && probe.stdout.startsWith('net:') && probe.stdout !== own) {
        detected.unshare = [unshare, ...flags];
        break;
      }
    }
  }
  return detected;
}

/** `net:[…]` of a process's network namespace, or undefined. */
export function readNetNamespace(pid: number | 'self'): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return undefined;
  }
}

function find(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}
