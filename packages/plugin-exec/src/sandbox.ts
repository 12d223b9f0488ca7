/**
 * The `sandbox` host: bubblewrap (Debian package `bubblewrap`). The command
 * runs as `nobody` in a user namespace of its own with no capabilities (also
 * when the gateway runs as root: bwrap keeps root's capabilities unless told
 * to drop them), no further user namespaces, a new session (no terminal to
 * inject into) and dies with its parent. It sees the whole file system
 * read-only except the hidden paths (the config folder, session logs, state:
 * an empty folder or file in their place), the workspace read-write, a private size-bounded /tmp, a private
 * /run, /dev and /proc of its own, no network and no other namespaces
 * (`--unshare-all`), an environment of exactly what we set (`--clearenv`),
 * and the seccomp allowlist of seccomp.ts.
 *
 * A user namespace maps its uid to the uid of whoever created it: bwrap started by root made the sandbox's `nobody`
 * host root (every file permission check passed: /etc/shadow, 0600 config files, files written as root). So a root
 * gateway starts bwrap through `setpriv` as the real SANDBOX_UID, after the root-only steps (the pids cgroup join,
 * the seccomp fd); the command is then `nobody` on the host too.
 */
import { execFile, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { ExecResourceLimits } from './options.js';
import { sandboxFilter } from './seccomp.js';

export interface SandboxSpec {
  readonly workspace: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly limits: ExecResourceLimits;
  /** Hidden paths the sandbox's user can reach (see `reachableHidden`): an empty tmpfs, or /dev/null, in their place. */
  readonly hidden?: readonly HiddenPath[];
  /** The folder above the workspace its user may not enter: the workspace is bound from STAGED_WORKSPACE under it. */
  readonly blocked?: string;
}

export interface HiddenPath {
  readonly path: string;
  readonly kind: 'folder' | 'file';
}

export type ProbeResult =
  | { readonly ok: true; readonly attempts: number }
  | { readonly ok: false; readonly reason: string; readonly attempts: number };

/** Probe timeouts: a loaded machine is slow, not sandbox-less, so a probe that times out is retried with more time. */
export const PROBE_TIMEOUTS_MS: readonly number[] = [10_000, 30_000, 60_000];

/** The uid and gid of a command inside the sandbox (`nobody`), and on the host when the gateway is root. */
export const SANDBOX_UID = 65534;

/** Whether this process is root: bwrap must then be started as SANDBOX_UID (see the file comment). */
export function gatewayIsRoot(): boolean {
  return process.geteuid?.() === 0;
}

/**
 * What runs bwrap: itself, or — for a root gateway — `setpriv` dropping to SANDBOX_UID (no supplementary groups, no
 * inheritable or bounding capabilities, no new privileges) and exec'ing it; undefined when root has no setpriv.
 */
export function bwrapLauncher(bwrap: string, setpriv = resolveExecutable('setpriv')): string[] | undefined {
  if (!gatewayIsRoot()) return [bwrap];
  if (!existsSync(setpriv)) return undefined;
  const id = String(SANDBOX_UID);
  return [
    setpriv,
    `--reuid=${id}`,
    `--regid=${id}`,
    '--clear-groups',
    '--inh-caps=-all',
    '--bounding-set=-all',
    '--no-new-privs',
    '--',
    bwrap,
  ];
}

/**
 * Whether `bwrap` runs here with the namespaces, the identity and the filter a real command gets (it may be
 * installed yet refused user namespaces; as root it is started as SANDBOX_UID, as a command is). Not installed
 * (ENOENT) or refused (a non-zero exit) is final; a timeout is retried with the next, longer timeout.
 */
export function probeBubblewrap(bwrap: string, timeoutsMs: readonly number[] = PROBE_TIMEOUTS_MS): ProbeResult {
  const launcher = bwrapLauncher(bwrap);
  if (!launcher)
    return {
      ok: false,
      reason: `setpriv is not installed (apt-get install -y util-linux): a root gateway needs it to run commands as uid ${SANDBOX_UID}`,
      attempts: 0,
    };
  const [file, ...prefix] = launcher;
  const args = [
    ...prefix,
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
    const probe = spawnSync(file!, args, {
      input: sandboxFilter(),
      stdio: ['pipe', 'ignore', 'pipe'],
      timeout,
      killSignal: 'SIGKILL',
      cwd: '/', // as SANDBOX_UID, bwrap may not enter this process's folder
    });
    if (probe.status === 0) return { ok: true, attempts: index + 1 };
    const code = (probe.error as NodeJS.ErrnoException | undefined)?.code;
    const stderr = probe.stderr?.toString().trim().split('\n').pop();
    if (code === 'ENOENT' || (probe.status === 127 && prefix.length > 0))
      return { ok: false, reason: `${bwrap} is not installed (apt-get install -y bubblewrap)`, attempts: index + 1 };
    if (code !== 'ETIMEDOUT') {
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

/**
 * What the sandbox's user may do with the workspace. bwrap, started as that user, binds only a folder that user can
 * reach; `blocked` is the first folder above the workspace it may not enter (a root gateway's config folder in /root),
 * which a root gateway works around by staging (see `stageLauncher`).
 */
export interface WorkspaceAccess {
  readonly access: 'writable' | 'read-only' | 'unreachable';
  readonly blocked?: string;
}

/** The workspace as the sandbox's user sees it (SANDBOX_UID for a root gateway, else this process's own user). */
export function sandboxWorkspaceAccess(workspace: string): WorkspaceAccess {
  if (!gatewayIsRoot()) {
    if (!allowed(workspace, constants.X_OK)) return { access: 'unreachable' };
    return { access: allowed(workspace, constants.W_OK) ? 'writable' : 'read-only' };
  }
  const folders = workspace.split('/').map((_, index, parts) => parts.slice(0, index + 1).join('/') || '/');
  const check = spawnSync(
    '/bin/sh',
    ['-c', 'for p; do cd -- "$p" 2>/dev/null || { printf %s "$p"; exit 3; }; done; [ -w . ] || exit 4', 'sh'].concat(
      folders.slice(1),
    ),
    { uid: SANDBOX_UID, gid: SANDBOX_UID, cwd: '/', env: {}, encoding: 'utf8' },
  );
  if (check.status === 0) return { access: 'writable' };
  if (check.status === 4) return { access: 'read-only' };
  const blocked = check.stdout;
  if (check.status !== 3 || !blocked || blocked === workspace || !stagingTools()) return { access: 'unreachable' };
  return { access: ownAccess(workspace), blocked };
}

function allowed(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

/** What SANDBOX_UID may do in a folder it cannot reach by path, from the folder's own owner and mode. */
function ownAccess(folder: string): WorkspaceAccess['access'] {
  const info = statSync(folder);
  const shift = info.uid === SANDBOX_UID ? 6 : info.gid === SANDBOX_UID ? 3 : 0;
  const bits = (info.mode >> shift) & 7;
  if (!(bits & 1)) return 'unreachable';
  return bits & 2 ? 'writable' : 'read-only';
}

/** Where the staging launcher binds the workspace, in the mount namespace bwrap starts in. */
export const STAGED_WORKSPACE = '/run/tool-search-workspace';

function stagingTools(): { unshare: string; mount: string } | undefined {
  const unshare = resolveExecutable('unshare');
  const mount = resolveExecutable('mount');
  return existsSync(unshare) && existsSync(mount) ? { unshare, mount } : undefined;
}

/**
 * For a root gateway whose workspace lies behind a folder the sandbox user may not enter: argv that, in a private
 * mount namespace of its own (nothing reaches this machine's mounts), puts a small tmpfs on /run, binds the workspace
 * at STAGED_WORKSPACE (a path that user reaches) and execs the rest; bwrap then binds it from there, under an empty
 * tmpfs over the blocked folder (whose contents that user could not read anyway). Undefined without util-linux.
 */
export function stageLauncher(workspace: string): string[] | undefined {
  const tools = stagingTools();
  if (!tools) return undefined;
  const script = [
    'ws=$1 mnt=$2; shift 2',
    `"$mnt" -t tmpfs -o mode=0755,size=64k tool-search /run && mkdir ${STAGED_WORKSPACE} && "$mnt" --bind "$ws" ${STAGED_WORKSPACE} && exec "$@"`,
  ].join('\n');
  return [
    tools.unshare,
    '--mount',
    '--propagation',
    'private',
    '--',
    '/bin/sh',
    '-c',
    script,
    'tool-search-stage',
    workspace,
    tools.mount,
  ];
}

/**
 * The hidden paths the sandbox's user can reach, with their kind. One it cannot reach (missing, or behind a folder it
 * may not enter) needs no hiding, and bwrap, started as that user, could not mount over it. A root gateway asks
 * SANDBOX_UID itself (a shell started as that uid); any other gateway is that user.
 */
export async function reachableHidden(paths: readonly string[]): Promise<HiddenPath[]> {
  const candidates = paths.filter((path) => path !== '/');
  if (!candidates.length) return [];
  if (!gatewayIsRoot()) return candidates.flatMap((path) => kindOf(path));
  const kinds = await new Promise<string>((resolve, reject) =>
    execFile(
      '/bin/sh',
      [
        '-c',
        'for p; do if [ -d "$p" ]; then printf d; elif [ -e "$p" ]; then printf f; else printf n; fi; done',
        'sh',
      ].concat(candidates),
      { uid: SANDBOX_UID, gid: SANDBOX_UID, cwd: '/', env: {} },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
  return candidates.flatMap((path, index): HiddenPath[] =>
    kinds[index] === 'd' ? [{ path, kind: 'folder' }] : kinds[index] === 'f' ? [{ path, kind: 'file' }] : [],
  );
}

function kindOf(path: string): HiddenPath[] {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    return info ? [{ path, kind: info.isDirectory() ? 'folder' : 'file' }] : [];
  } catch {
    return []; // EACCES, ENOTDIR, ELOOP: not reachable from here
  }
}

/** The bwrap arguments that wrap `argv`; the seccomp program is read from fd 3. */
export function sandboxArgs(spec: SandboxSpec, argv: readonly string[]): string[] {
  const env = Object.entries(spec.env).flatMap(([key, value]) => ['--setenv', key, value]);
  const hidden = hideArgs(spec.hidden ?? []);
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
    ...hidden.mounts,
    ...(spec.blocked ? ['--tmpfs', spec.blocked] : []),
    // After the hidden paths: a workspace inside the config folder is bound again on top of its empty tmpfs.
    '--bind',
    spec.blocked ? STAGED_WORKSPACE : spec.workspace,
    spec.workspace,
    ...hidden.readOnly,
    ...(spec.blocked ? ['--remount-ro', spec.blocked] : []),
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

/**
 * An empty tmpfs over each hidden folder (made read-only once the workspace is bound inside it, like the rest of the
 * root), /dev/null over each hidden file.
 */
function hideArgs(paths: readonly HiddenPath[]): { readonly mounts: string[]; readonly readOnly: string[] } {
  const mounts: string[] = [];
  const readOnly: string[] = [];
  for (const { path, kind } of paths) {
    if (kind === 'folder') {
      mounts.push('--tmpfs', path);
      readOnly.push('--remount-ro', path);
    } else mounts.push('--ro-bind', '/dev/null', path);
  }
  return { mounts, readOnly };
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

/** An absolute path for a bare name (the launcher runs with an empty environment: no PATH to search). */
export function resolveExecutable(name: string): string {
  if (isAbsolute(name) || name.includes('/')) return name;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return name;
}
