/**
 * The `sandbox` host: bubblewrap (Debian package `bubblewrap`). The command
 * sees the whole file system read-only, the workspace read-write, a private
 * /tmp, /dev and /proc of its own, no network and no other namespaces
 * (`--unshare-all`) and no `connect(2)` at all (seccomp: Unix sockets on the
 * read-only file system stay unreachable), no controlling terminal (the spawn is its own session), an environment of
 * exactly what we set (`--clearenv`), and dies with its parent.
 */
import { spawnSync } from 'node:child_process';
import { connectFilter } from './seccomp.js';

export interface SandboxSpec {
  readonly workspace: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

/** Whether `bwrap` runs here with the namespaces we need (it may be installed yet refused user namespaces). */
export function bubblewrapWorks(bwrap: string): boolean {
  // The same namespaces and the same seccomp program (here on stdin) as a real command.
  const args = ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '--seccomp', '0', '--', 'true'];
  const probe = spawnSync(bwrap, args, { input: connectFilter(), stdio: ['pipe', 'ignore', 'ignore'], timeout: 10_000 });
  return probe.status === 0;
}

/** The bwrap arguments that wrap `argv`. */
export function sandboxArgs(spec: SandboxSpec, argv: readonly string[]): string[] {
  const env = Object.entries(spec.env).flatMap(([key, value]) => ['--setenv', key, value]);
  return [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
    '--tmpfs', '/run', // daemon sockets (databases, dbus, docker) live here
    '--bind', spec.workspace, spec.workspace,
    '--unshare-all',
    '--die-with-parent',
    // No --new-session: the spawn is already a new session without a terminal, and staying in bwrap's process
    // group lets a kill reach the command even while bwrap is still setting up (before its death signal is armed).
    '--clearenv',
    '--seccomp', '3', // connectFilter(), written to fd 3 by the spawn
    ...env,
    '--chdir', spec.cwd,
    '--',
    ...argv,
  ];
}
