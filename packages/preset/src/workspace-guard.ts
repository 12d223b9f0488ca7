/**
 * The workspace check at start (`@tool-search/config`'s `checkWorkspaces`) with what only the front end knows: the
 * config folder (where `tool-search.json` is looked up and `./` modules resolve), the plugin modules' resolved files,
 * the session log and cron folders it was given, and the state folders. The default workspace
 * (`<config folder>/workspace`) is created here, owner-only, on first use.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import {
  actedWorkspaces,
  checkWorkspaces,
  defaultWorkspace,
  type GuardedPath,
  type ToolSearchConfig,
} from '@tool-search/config';
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
    ...(await moduleFiles(config, baseDir)),
  ];
  checkWorkspaces(config, baseDir, { extra });
}

/** The workspace of `plugins.core`: the configured one, else the default, created (mode 0700) when missing. */
export function coreWorkspace(configured: string | undefined, baseDir: string = process.cwd()): string {
  const fallback = defaultWorkspace(baseDir);
  const workspace = configured ?? fallback;
  // Only the default is created: a configured folder that is missing is a typo the file tools report.
  if (workspace === fallback) mkdirSync(workspace, { recursive: true, mode: 0o700 });
  return workspace;
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
