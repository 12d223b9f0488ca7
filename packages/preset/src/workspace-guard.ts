/**
 * The workspace check at start (`@tool-search/config`'s `checkWorkspaces`) with what only the front end knows: the
 * config folder (where `tool-search.json` is looked up and `./` modules resolve), the plugin modules' resolved files,
 * the session log and cron folders it was given, and the state folders. The default workspace
 * (`<config folder>/workspace`) is created here, owner-only, on first use (by a root gateway: owned by the sandbox's
 * user, uid 65534, which is who sandboxed commands run as there).
 */
import { closeSync, constants, existsSync, fchownSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  actedWorkspaces,
  checkWorkspaces,
  defaultWorkspace,
  workspaceContains,
  type GuardedPath,
  type ToolSearchConfig,
} from '@tool-search/config';
import { ConfigError } from '@tool-search/kernel';
import { SANDBOX_UID } from '@tool-search/plugin-exec';
import { defaultStateDir } from '@tool-search/plugin-mcp/state-dir';
import { isBuiltinPlugin } from './builtins.js';

export interface WorkspaceGuardOptions {
  /** The config file's folder (default `process.cwd()`). */
  readonly baseDir?: string;
  readonly sessionLogDir?: string;
  readonly cronDir?: string;
}

/** Throws CONFIG_INVALID (rule `workspaceContains`) when a workspace the config acts on contains a guarded path. */
export async function checkConfigWorkspaces(config: ToolSearchConfig, options: WorkspaceGuardOptions): Promise<void> {
  const baseDir = options.baseDir ?? process.cwd();
  if (actedWorkspaces(config, baseDir).length === 0) return;
  const extra: GuardedPath[] = [
    { what: 'the config folder', path: baseDir },
    ...(options.sessionLogDir ? [{ what: 'the session log folder', path: options.sessionLogDir }] : []),
    ...(options.cronDir ? [{ what: 'the cron folder', path: options.cronDir }] : []),
    ...stateFolders(process.env),
    ...ownCode(),
    ...(await moduleFiles(config, baseDir)),
  ];
  checkWorkspaces(config, baseDir, { extra });
  // Nor may a workspace lie inside Tool Search's own code (one package's folder, a dependency's).
  for (const workspace of actedWorkspaces(config, baseDir)) {
    const code = ownCode().find((entry) => workspaceContains(entry.path, workspace.path));
    if (code)
      throw new ConfigError(
        workspace.pointer,
        'workspaceContains',
        `${workspace.pointer.slice(1).replace(/\//g, '.')} ${workspace.path} is inside ${code.what} ${code.path}: an agent that writes the workspace would change what the gateway runs next; give the workspace a folder of its own`,
        { details: { workspace: workspace.path, inside: code.path, what: code.what } },
      );
  }
}

/**
 * The workspace of `plugins.core`: the configured one (a relative one means the config's folder, where the check above
 * looked, never the working folder), else the default, created (mode 0700) when missing.
 */
export function coreWorkspace(configured: string | undefined, baseDir: string = process.cwd()): string {
  const fallback = defaultWorkspace(baseDir);
  const workspace = configured === undefined ? fallback : resolve(baseDir, configured);
  // Only the default is created: a configured folder that is missing is a typo the file tools report.
  if (workspace === fallback && mkdirSync(workspace, { recursive: true, mode: 0o700 }) !== undefined)
    giveToSandboxUser(workspace);
  return workspace;
}

/**
 * A root gateway runs sandboxed commands as SANDBOX_UID (host root in a user namespace would be host root): the
 * workspace it just made is that user's, so commands can write it. Through the descriptor, never by path.
 */
function giveToSandboxUser(folder: string): void {
  if (process.geteuid?.() !== 0) return;
  const fd = openSync(folder, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    fchownSync(fd, SANDBOX_UID, SANDBOX_UID);
  } finally {
    closeSync(fd);
  }
}

/**
 * What the sandboxed `exec` must not read, although it sees the file system read-only as `nobody`: the config folder
 * (`tool-search.json` with its API keys is often readable by every user; `baseDir` only when a front end gave one),
 * the session logs (other agents' transcripts), the cron folder and the state folders (MCP OAuth tokens).
 */
export function hiddenFromSandbox(config: ToolSearchConfig, baseDir?: string, cronDir?: string): string[] {
  const dir = baseDir ?? process.cwd();
  const logs = [config.gateway?.sessions?.dir, config.session?.logDir].flatMap((path) =>
    path === undefined ? [] : [resolve(dir, path)],
  );
  return [
    ...(baseDir !== undefined ? [resolve(baseDir)] : []),
    ...logs,
    ...(cronDir !== undefined ? [resolve(cronDir)] : []),
    ...stateFolders(process.env).map((entry) => entry.path),
  ];
}

/** MCP OAuth tokens and the cron fallback (`defaultStateDir`), browser profiles and diffs (`$XDG_STATE_HOME/tool-search`). */
function stateFolders(env: NodeJS.ProcessEnv): GuardedPath[] {
  const xdg = join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'tool-search');
  const state = defaultStateDir(env);
  return [
    { what: 'the state folder', path: state },
    ...(xdg !== state ? [{ what: 'the state folder (browser profiles, diffs)', path: xdg }] : []),
  ];
}

/**
 * What the gateway itself runs: Node's binary, the script it started, the folder holding Tool Search's packages
 * (`node_modules/@tool-search`, or `packages` in a checkout) and every `node_modules` its modules load from.
 */
function ownCode(): GuardedPath[] {
  const packages = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
  const guarded: GuardedPath[] = [
    { what: "Node's binary", path: process.execPath },
    { what: "Tool Search's packages", path: packages },
  ];
  if (process.argv[1]) guarded.push({ what: 'the script this process runs', path: resolve(process.argv[1]) });
  for (let dir = packages; ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    if (existsSync(modules)) guarded.push({ what: 'a node_modules folder Tool Search loads from', path: modules });
    if (dirname(dir) === dir) return guarded;
  }
}

/** The files package-name plugin modules resolve to (`./` paths the config package already checks). */
async function moduleFiles(config: ToolSearchConfig, baseDir: string): Promise<GuardedPath[]> {
  const ids = Object.keys(config.plugins ?? {}).filter((id) => !isBuiltinPlugin(id));
  if (!ids.length) return [];
  const { pluginModuleFile } = await import('./load-plugin.js');
  return ids.flatMap((id) => {
    const file = pluginModuleFile(id, baseDir);
    return file ? [{ what: `the plugin module "${id}"`, path: file }] : [];
  });
}
