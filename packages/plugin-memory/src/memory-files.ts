/**
 * The workspace's memory files, as OpenClaw lays them out: `MEMORY.md` and
 * Markdown files under `memory/` (daily notes such as `memory/2026-11-30.md`).
 * Paths go through the workspace resolver, so a symlink that leads out of the
 * workspace is skipped when listing and refused when read; reads open the file
 * with `@tool-search/workspace`'s fd-relative walk, so a folder swapped for a
 * symlink between listing and reading cannot redirect them outside.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ToolSearchError } from '@tool-search/kernel';
import { openInWorkspace, resolveInWorkspace } from '@tool-search/workspace';
import { WorkspaceErrors } from '@tool-search/workspace';
import { MemoryErrors } from './errors.js';

/** Files read at most, and bytes read per file, so a huge memory folder costs bounded work. */
export const MAX_MEMORY_FILES = 1_000;
export const MAX_MEMORY_FILE_BYTES = 1_000_000;

export interface MemoryFile {
  readonly path: string;
  readonly absolute: string;
  readonly mtimeMs: number;
  readonly size: number;
}

/** Whether a workspace-relative path names a memory file. */
export function isMemoryPath(relative: string): boolean {
  return relative === 'MEMORY.md' || (relative.startsWith('memory/') && relative.endsWith('.md'));
}

export function listMemoryFiles(root: string): MemoryFile[] {
  const found: MemoryFile[] = [];
  const add = (relative: string) => {
    if (found.length >= MAX_MEMORY_FILES) return;
    try {
      const resolved = resolveInWorkspace(root, relative);
      if (!resolved.exists || !isMemoryPath(resolved.relative)) return;
      const stat = statSync(resolved.absolute);
      if (stat.isFile())
        found.push({ path: resolved.relative, absolute: resolved.absolute, mtimeMs: stat.mtimeMs, size: stat.size });
    } catch {
      // Outside the workspace (a symlink out) or unreadable: not a memory file.
    }
  };
  add('MEMORY.md');
  const walk = (relative: string, depth: number) => {
    if (depth > 8) return;
    let entries;
    try {
      entries = readdirSync(join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child, depth + 1);
      else if (entry.name.endsWith('.md')) add(child);
    }
  };
  walk('memory', 0);
  return found;
}

/**
 * A memory file's text (at most MAX_MEMORY_FILE_BYTES), opened fd-relative from the workspace root; `undefined` when
 * it is missing or what is there now is not a memory file inside the workspace.
 */
export async function readMemoryFile(root: string, relative: string): Promise<string | undefined> {
  const opened = await openInWorkspace(root, relative).catch((error: unknown) => {
    if (ToolSearchError.isInstance(error) && error.code === WorkspaceErrors.PATH_OUTSIDE_WORKSPACE) throw error;
    return undefined;
  });
  if (!opened) return undefined;
  try {
    if (!isMemoryPath(opened.relative)) return undefined;
    const buffer = Buffer.alloc(MAX_MEMORY_FILE_BYTES);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await opened.handle.read(buffer, length, buffer.length - length);
      if (!bytesRead) break;
      length += bytesRead;
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await opened.handle.close();
  }
}

/** Resolves a model-given path for `memory_get`; only memory files inside the workspace. */
export function resolveMemoryPath(root: string, input: string): { path: string; absolute: string; exists: boolean } {
  const resolved = resolveInWorkspace(root, input);
  if (!isMemoryPath(resolved.relative)) {
    throw new ToolSearchError(
      MemoryErrors.MEMORY_PATH_INVALID,
      `${input} is not a memory file: memory_get reads MEMORY.md and memory/*.md`,
      { details: { rule: 'memoryFile', path: input } },
    );
  }
  return { path: resolved.relative, absolute: resolved.absolute, exists: resolved.exists };
}
