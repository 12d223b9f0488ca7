/**
 * Reading `tool-search.json`: JSON5 text → validated config. A missing file
 * in the working folder means an empty config; a missing explicit path, an
 * unreadable file or a syntax error is CONFIG_UNREADABLE (with line/column).
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import JSON5 from 'json5';
import { ConfigError, ErrorCode } from '@tool-search/kernel';
import type { ToolSearchConfig } from './types.js';
import { validateConfig } from './validate.js';

/** The file looked up in the working folder when no path is given. */
export const CONFIG_FILE_NAME = 'tool-search.json';

export interface LoadConfigOptions {
  /** Folder to look in (and to resolve `path` against). Default `process.cwd()`. */
  readonly cwd?: string;
  /** An explicit config file; it must exist. */
  readonly path?: string;
}

export interface LoadedConfig {
  readonly config: ToolSearchConfig;
  /** Absolute path of the file read; absent when no file was found. */
  readonly path?: string;
}

export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const file = resolve(cwd, options.path ?? CONFIG_FILE_NAME);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (options.path === undefined && code === 'ENOENT') return { config: {} };
    throw new ConfigError('/', 'readable', `Cannot read config file ${file}: ${code === 'ENOENT' ? 'no such file' : String(error)}`, {
      code: ErrorCode.CONFIG_UNREADABLE,
      cause: error,
      details: { source: file },
    });
  }
  return { config: withConfigFolder(parseConfig(text, file), dirname(file)), path: file };
}

/** Paths in the file mean paths from its folder: `plugins.core.workspace` is resolved there (and defaults to it). */
function withConfigFolder(config: ToolSearchConfig, folder: string): ToolSearchConfig {
  const core = config.plugins?.core;
  if (!core) return config;
  return { ...config, plugins: { ...config.plugins, core: { ...core, workspace: resolve(folder, core.workspace ?? '.') } } };
}

/** Parses JSON5 text and validates it; `source` names the text in errors. */
export function parseConfig(text: string, source = 'config'): ToolSearchConfig {
  let value: unknown;
  try {
    value = JSON5.parse(text);
  } catch (error) {
    const { lineNumber, columnNumber } = error as { lineNumber?: number; columnNumber?: number };
    const where = lineNumber !== undefined ? `:${lineNumber}:${columnNumber ?? 1}` : '';
    throw new ConfigError('/', 'syntax', `Cannot parse ${source}${where}: ${error instanceof Error ? error.message : String(error)}`, {
      code: ErrorCode.CONFIG_UNREADABLE,
      cause: error,
      details: { source, ...(lineNumber !== undefined ? { line: lineNumber, column: columnNumber } : {}) },
    });
  }
  return validateConfig(value, source);
}
