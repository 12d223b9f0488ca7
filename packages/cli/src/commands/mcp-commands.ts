/**
 * `config check` resolves each stdio MCP server's command as the server would be started: a path (relative to the
 * server's `cwd`), or a name on the `PATH` the server gets (its `env.PATH`, else this process's). One that is not
 * there would only fail at the first run (`MCP_SERVER_FAILED`, reason `spawn`); the check says so now (issue 41).
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { ToolSearchConfig } from '@tool-search/config';
import type { AnyErrorCode } from '@tool-search/kernel/errors';
import { CliErrors } from '../errors.js';

interface StdioEntry {
  readonly command?: unknown;
  readonly cwd?: unknown;
  readonly env?: Record<string, string>;
}

export interface MissingCommand {
  readonly code: AnyErrorCode;
  readonly level: 'error';
  readonly message: string;
  readonly details: { readonly server: string; readonly command: string };
}

/** Every stdio server (`mcp.servers`, `mcpServers`) whose command cannot be found or run here. */
export async function missingMcpCommands(config: ToolSearchConfig, cwd: string): Promise<MissingCommand[]> {
  const entries: [string, StdioEntry][] = [
    ...Object.entries((config.mcp?.servers ?? {}) as Record<string, StdioEntry>),
    ...Object.entries((config.mcpServers ?? {}) as Record<string, StdioEntry>),
  ];
  const missing: MissingCommand[] = [];
  for (const [server, entry] of entries) {
    if (typeof entry.command !== 'string' || typeof (entry as { url?: unknown }).url === 'string') continue;
    const dir = typeof entry.cwd === 'string' ? resolve(cwd, entry.cwd) : cwd;
    const path = entry.env?.PATH ?? process.env.PATH ?? '';
    if (await findCommand(entry.command, dir, path)) continue;
    const where = /[\\/]/.test(entry.command) ? `in ${dir}` : 'on PATH';
    missing.push({
      code: CliErrors.MCP_COMMAND_NOT_FOUND,
      level: 'error',
      message: `MCP server "${server}": command "${entry.command}" is not found ${where} (or is not executable); install it or fix mcp server "${server}".command`,
      details: { server, command: entry.command },
    });
  }
  return missing;
}

async function findCommand(command: string, cwd: string, path: string): Promise<boolean> {
  if (/[\\/]/.test(command)) return executable(isAbsolute(command) ? command : resolve(cwd, command));
  for (const dir of path.split(delimiter).filter(Boolean)) {
    if (await executable(join(isAbsolute(dir) ? dir : resolve(cwd, dir), command))) return true;
  }
  return false;
}

async function executable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false; // missing, not executable, or not ours to read: the server could not start either
  }
}
