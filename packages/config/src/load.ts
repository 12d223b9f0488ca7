/**
 * Reading `tool-search.json`: JSON5 text → validated config. A missing file
 * in the working folder means an empty config; a missing explicit path, an
 * unreadable file or a syntax error is CONFIG_UNREADABLE (with line/column).
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseJson5 } from './json5.js';
import { ConfigError, ErrorCode, errorMessage } from '@tool-search/kernel';
import type { ToolSearchConfig } from './types.js';
import { validateConfig } from './validate.js';
import { checkWorkspaces, DEFAULT_WORKSPACE_FOLDER } from './workspace.js';

/** The file looked up in the working folder when no path is given. */
export const CONFIG_FILE_NAME = 'tool-search.json';

export interface LoadConfigOptions {
  /** Folder to look in (and to resolve `path` against). Default `process.cwd()`. */
  readonly cwd?: string;
  /** An explicit config file; it must exist. */
  readonly path?: string;
}

export interface LoadedConfig {
  /** The validated config; relative paths in it (`session.logDir`) are already resolved against `dir`. */
  readonly config: ToolSearchConfig;
  /** Absolute path of the file read; absent when no file was found. */
  readonly path?: string;
  /** The folder relative paths in the config mean: the file's folder, or `cwd` when there is no file. */
  readonly dir: string;
}

export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const file = resolve(cwd, options.path ?? CONFIG_FILE_NAME);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (options.path === undefined && code === 'ENOENT') return { config: {}, dir: resolve(cwd) };
    throw new ConfigError(
      '/',
      'readable',
      `Cannot read config file ${file}: ${code === 'ENOENT' ? 'no such file' : String(error)}`,
      {
        code: ErrorCode.CONFIG_UNREADABLE,
        cause: error,
        details: { source: file },
      },
    );
  }
  const dir = dirname(file);
  const config = resolvePaths(parseConfig(text, file), dir);
  // The workspace an agent writes must not hold this file, plugin modules, session logs or cron (see workspace.ts).
  checkWorkspaces(config, dir, { configPath: file });
  return { config, path: file, dir };
}

/**
 * A config's relative paths (`session.logDir`, `gateway.sessions.dir`, `plugins.core.workspace`) mean its file's
 * folder, wherever the process runs; `plugins.core.workspace` defaults to the folder `workspace` in it, never the
 * config's own folder (an agent writing the workspace must not reach the config).
 */
export function resolvePaths(config: ToolSearchConfig, dir: string): ToolSearchConfig {
  let out = config;
  const core = config.plugins?.core;
  if (core)
    out = {
      ...out,
      plugins: {
        ...out.plugins,
        core: { ...core, workspace: resolve(dir, core.workspace ?? DEFAULT_WORKSPACE_FOLDER) },
      },
    };
  const logDir = config.session?.logDir;
  if (logDir !== undefined) out = { ...out, session: { ...out.session, logDir: resolve(dir, logDir) } };
  const sessionsDir = config.gateway?.sessions?.dir;
  if (sessionsDir !== undefined)
    out = {
      ...out,
      gateway: { ...out.gateway, sessions: { ...out.gateway?.sessions, dir: resolve(dir, sessionsDir) } },
    };
  return out;
}
/** Parses JSON5 text and validates it; `source` names the text in errors. */
export function parseConfig(text: string, source = 'config'): ToolSearchConfig {
  let value: unknown;
  try {
    value = parseJson5(text);
  } catch (error) {
    const { lineNumber, columnNumber } = error as { lineNumber?: number; columnNumber?: number };
    const where = lineNumber !== undefined ? `:${lineNumber}:${columnNumber ?? 1}` : '';
    throw new ConfigError('/', 'syntax', `Cannot parse ${source}${where}: ${errorMessage(error)}`, {
      code: ErrorCode.CONFIG_UNREADABLE,
      cause: error,
      details: { source, ...(lineNumber !== undefined ? { line: lineNumber, column: columnNumber } : {}) },
    });
  }
  return validateConfig(value, source);
}
