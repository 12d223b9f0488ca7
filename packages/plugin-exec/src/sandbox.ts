/**
 * The `sandbox` host: bubblewrap (Debian package `bubblewrap`). The command
 * runs as `nobody` in a user namespace of its own with no capabilities (also
 * when the gateway runs as root: bwrap keeps root's capabilities unless told
 * to drop them), no further user namespaces, a new session (no terminal to
 * inject into) and dies with its parent. It sees the whole file system
 * read-only, the workspace read-write, a private size-bounded /tmp, a private
 * /run, /dev and /proc of its own, no network and no other namespaces
 * (`--unshare-all`), an environment of exactly what we set (`--clearenv`),
 * and the seccomp allowlist of seccomp.ts.
 */
import { spawnSync } from 'node:child_process';
import type { ExecResourceLimits } from './options.js';
import { sandboxFilter } from './seccomp.js';

export interface SandboxSpec {
  readonly workspace: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly limits: ExecResourceLimits;
}

export type ProbeResult =
  | { readonly ok: true; readonly attempts: number }
  | { readonly ok: false; readonly reason: string; readonly attempts: number };

/** Probe timeouts: a loaded machine is slow, not sandbox-less, so a probe that times out is retried with more time. */
export const PROBE_TIMEOUTS_MS: readonly number[] = [10_000, 30_000, 60_000];

/** The uid and gid of a command inside the sandbox (`nobody`). */
export const SANDBOX_UID = 65534;

/**
 * Whether `bwrap` runs here with the namespaces, the identity and the filter a real command gets (it may be
 * installed yet refused user namespaces). Not installed (ENOENT) or refused (a non-zero exit) is final; a timeout is
 * retried with the next, longer timeout.
 */
export function probeBubblewrap(bwrap: string, timeoutsMs: readonly number[] = PROBE_TIMEOUTS_MS): ProbeResult {
  const args = [
    ...isolationArgs(),
    '--ro-bind',
    '/',
    '/',
    '--tmpfs',
    '/tmp',
    '--size',
    String(1 << 20),
    '--tmpfs',
    '/run',
    '--seccomp',
    '0',
    '--',
    'true',
  ];
  let reason = '';
  for (const [index, timeout] of timeoutsMs.entries()) {
    const probe = spawnSync(bwrap, args, {
      input: sandboxFilter(),
      stdio: ['pipe', 'ignore', 'pipe'],
      timeout,
      killSignal: 'SIGKILL',
    });
    if (probe.status === 0) return { ok: true, attempts: index + 1 };
    const code = (probe.error as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ENOENT')
      return { ok: false, reason: `${bwrap} is not installed (apt-get install -y bubblewrap)`, attempts: index + 1 };
    if (code !== 'ETIMEDOUT') {
      const stderr = probe.stderr?.toString().trim().split('\n').pop();
      return {
        ok: false,
        reason: `${bwrap} cannot make its sandbox here${stderr ? `: ${stderr}` : ` (exit ${probe.status ?? probe.signal})`}`,
        attempts: index + 1,
      };
    }
    reason = `${bwrap} did not finish its probe within ${timeout} ms`;
  }
  return { ok: false, reason: `${reason} (${timeoutsMs.length} attempts)`, attempts: timeoutsMs.length };
}

/** Whether `bwrap` runs here (see probeBubblewrap). */
export function bubblewrapWorks(bwrap: string): boolean {
  return probeBubblewrap(bwrap).ok;
}

/** The bwrap arguments that wrap `argv`; the seccomp program is read from fd 3. */
export function sandboxArgs(spec: SandboxSpec, argv: readonly string[]): string[] {
  const env = Object.entries(spec.env).flatMap(([key, value]) => ['--setenv', key, value]);
  return [
    ...isolationArgs(),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--size',
    String(spec.limits.tmpMb * 1024 * 1024),
    '--tmpfs',
    '/tmp',
    '--tmpfs',
    '/run', // daemon sockets (databases, dbus, docker) live here
    '--bind',
    spec.workspace,
    spec.workspace,
    '--clearenv',
    '--seccomp',
    '3',
    ...env,
    '--chdir',
    spec.cwd,
    '--',
    ...argv,
  ];
}

/** Namespaces, identity and lifetime: the same for the probe and every command. */
function isolationArgs(): string[] {
  return [
    '--unshare-all',
    '--unshare-user', // explicit: as root, --unshare-all's "-try" would keep root's own namespace
    '--uid',
    String(SANDBOX_UID),
    '--gid',
    String(SANDBOX_UID),
    '--disable-userns', // no nested user namespace: no capabilities regained, no remount
    '--cap-drop',
    'ALL',
    '--new-session',
    '--die-with-parent',
  ];
}
