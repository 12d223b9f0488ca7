/**
 * Who Chromium runs as. Chromium refuses its own sandbox as root, so a root host ran it as root with `--no-sandbox`:
 * a renderer exploit was root. Here a root host runs it as an unprivileged uid of its own (never 65534, the exec
 * sandbox's user, which could then open its DevTools pipe under /proc or trace it), with Chromium's sandbox on where
 * user namespaces allow it. A launcher script does it: `bwrap` gives Chromium a mount namespace in which the folder
 * that hides the profile (e.g. /root, 0700) is an empty tmpfs with only the profile folder bound in at its own path
 * (so every path playwright-core passes stays valid), then `setpriv` drops to the uid with no capabilities left.
 */
import {
  accessSync,
  chmodSync,
  constants,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, join, parse } from 'node:path';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';

/** The uid (and gid) a root host runs Chromium as by default: in Debian's reserved 65000-65533, so no account's. */
export const BROWSER_UID = 65_533;

export interface BrowserUser {
  readonly uid: number;
  readonly gid: number;
}

/**
 * The user a root host runs Chromium as, or why it stays root: `uid` false (the operator's choice), not root (then
 * nothing to drop), or bwrap/setpriv missing.
 */
export function browserUser(
  uid: number | false | undefined,
  env: NodeJS.ProcessEnv,
): { user: BrowserUser } | { root: string } | undefined {
  if (uid !== undefined && uid !== false && !(Number.isInteger(uid) && uid > 0 && uid < 2 ** 32 - 1 && uid !== 65_534))
    throw new ToolSearchError(
      ErrorCode.OPTIONS_INVALID,
      `browserUid must be a uid other than 0 and 65534 (the exec sandbox's user), or false; got ${String(uid)}`,
      { details: { browserUid: uid } },
    );
  if (process.getuid?.() !== 0) return undefined;
  if (uid === false) return { root: 'the plugin option browserUid is false' };
  const missing = ['bwrap', 'setpriv'].filter((tool) => !onPath(tool, env));
  if (missing.length)
    return {
      root: `${missing.join(' and ')} not found (apt-get install -y ${missing.includes('bwrap') ? 'bubblewrap ' : ''}util-linux)`,
    };
  const id = uid ?? BROWSER_UID;
  return { user: { uid: id, gid: id } };
}

/**
 * Makes the profile's folders the browser user's (user data and HOME; the profile folder itself stays root's, so the
 * browser cannot swap them) and writes the launcher for this profile; returns the launcher's path.
 */
export function prepareLauncher(options: {
  readonly chromium: string;
  readonly user: BrowserUser;
  readonly userDataDir: string;
  readonly launchersDir: string;
  readonly profile: string;
}): string {
  const { user, userDataDir } = options;
  const profileDir = dirname(userDataDir);
  const home = join(profileDir, 'home');
  mkdirSync(profileDir, { recursive: true, mode: 0o755 });
  chmodSync(profileDir, 0o755);
  for (const dir of [userDataDir, home]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // A profile made by root before (or reset): hand it over once. lchown never follows a link the browser made.
    if (lstatSync(dir).uid !== user.uid) chownTree(dir, user);
  }
  mkdirSync(options.launchersDir, { recursive: true, mode: 0o700 });
  chmodSync(options.launchersDir, 0o700);
  const hidden = hidingAncestor(profileDir);
  const bwrap = [
    'bwrap',
    '--dev-bind',
    '/',
    '/',
    ...(hidden
      ? ['--tmpfs', hidden, ...between(hidden, profileDir).flatMap((dir) => ['--perms', '0755', '--dir', dir])]
      : []),
    '--bind',
    profileDir,
    profileDir,
    '--die-with-parent',
    '--',
    'setpriv',
    `--reuid=${user.uid}`,
    `--regid=${user.gid}`,
    '--clear-groups',
    '--inh-caps=-all',
    '--bounding-set=-all',
    'env',
    `HOME=${home}`,
    options.chromium,
  ];
  const script = `#!/bin/sh\n# Written by @tool-search/plugin-browser: Chromium as uid ${user.uid}, shown only its profile.\nexec ${bwrap.map(quote).join(' ')} "$@"\n`;
  const path = join(options.launchersDir, `${options.profile}.sh`);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, script, { mode: 0o700 });
  renameSync(temp, path);
  return path;
}

/** The top-most ancestor of `dir` that other users cannot pass through (hidden behind a tmpfs), if any. */
function hidingAncestor(dir: string): string | undefined {
  const { root } = parse(dir);
  const parts = dir.slice(root.length).split('/').filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    const ancestor = root + parts.slice(0, i).join('/');
    if ((statSync(ancestor).mode & 0o001) === 0) return ancestor;
  }
  return undefined;
}

/** The folders strictly between `ancestor` and `dir`, outermost first (made passable on the tmpfs). */
function between(ancestor: string, dir: string): string[] {
  const folders: string[] = [];
  for (let folder = dirname(dir); folder !== ancestor && folder.startsWith(`${ancestor}/`); folder = dirname(folder))
    folders.unshift(folder);
  return folders;
}

function chownTree(path: string, user: BrowserUser): void {
  lchownSync(path, user.uid, user.gid);
  if (!lstatSync(path).isDirectory()) return;
  for (const entry of readdirSync(path)) chownTree(join(path, entry), user);
}

function onPath(tool: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, tool), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
