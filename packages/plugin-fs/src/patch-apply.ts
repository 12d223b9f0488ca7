/**
 * Applies parsed patch operations all-or-nothing. Every change is computed in
 * memory first (a virtual view of the files the patch touches); only when all
 * of them apply is anything written, each file atomically; if a write still
 * fails, the files already written are restored.
 */
import { errorMessage, ToolSearchError } from '@tool-search/kernel';
import type { PatchChunk, PatchOp } from './patch-parse.js';
import { FsErrors } from './errors.js';

/** The files a patch reads and writes: confined to the workspace (tools.ts) or not (`workspaceOnly: false`). */
export interface PatchFiles {
  /** A canonical key for a patch path, so two spellings of one file are one entry (throws PATH_OUTSIDE_WORKSPACE when confined). */
  key(path: string): string;
  /** The file's text, or null when nothing is there; PATCH_CONFLICT when it is not a regular file. */
  read(key: string): Promise<string | null>;
  write(key: string, content: string): Promise<void>;
  remove(key: string): Promise<void>;
}

export interface PatchSummary {
  readonly added: string[];
  readonly modified: string[];
  readonly deleted: string[];
  readonly moved: { from: string; to: string }[];
}

export async function applyPatchOps(ops: readonly PatchOp[], files: PatchFiles): Promise<PatchSummary> {
  const view = new Map<string, string | null>(); // file key → new content, null = deleted
  const current = async (path: string): Promise<string | null> => (view.has(path) ? view.get(path)! : files.read(path));
  const resolvePath = (path: string) => files.key(path);
  const summary: PatchSummary = { added: [], modified: [], deleted: [], moved: [] };
  for (const op of ops) {
    const path = resolvePath(op.path);
    const before = await current(path);
    if (op.kind === 'add') {
      if (before !== null) throw conflict(op.path, 'the file to add already exists; use "*** Update File:"');
      view.set(path, withFinalNewline(op.lines.join('\n')));
      summary.added.push(op.path);
    } else if (op.kind === 'delete') {
      if (before === null) throw conflict(op.path, 'the file to delete does not exist');
      view.set(path, null);
      summary.deleted.push(op.path);
    } else {
      if (before === null) throw conflict(op.path, 'the file to update does not exist');
      const after = applyChunks(before, op.chunks, op.path);
      if (op.moveTo !== undefined) {
        const target = resolvePath(op.moveTo);
        if (target !== path && (await current(target)) !== null)
          throw conflict(op.moveTo, 'the move target already exists');
        view.set(path, null);
        view.set(target, after);
        summary.moved.push({ from: op.path, to: op.moveTo });
      } else {
        view.set(path, after);
        summary.modified.push(op.path);
      }
    }
  }
  await commit(view, files);
  return summary;
}

/** Applies the chunks of one update to a file's text. */
export function applyChunks(text: string, chunks: readonly PatchChunk[], name: string): string {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const replacements: { at: number; remove: number; insert: readonly string[] }[] = [];
  let cursor = 0;
  for (const chunk of chunks) {
    if (chunk.anchor !== undefined) {
      const at = seek(lines, [chunk.anchor], cursor, false);
      if (at < 0) throw conflict(name, `the @@ anchor ${JSON.stringify(chunk.anchor)} was not found`);
      cursor = at + 1;
    }
    if (!chunk.oldLines.length) {
      replacements.push({ at: lines.length, remove: 0, insert: chunk.newLines });
      continue;
    }
    const at = seek(lines, chunk.oldLines, cursor, chunk.atEnd);
    if (at < 0) throw conflict(name, `a chunk's lines were not found:\n${chunk.oldLines.slice(0, 5).join('\n')}`);
    replacements.push({ at, remove: chunk.oldLines.length, insert: keepContext(lines, at, chunk) });
    cursor = at + chunk.oldLines.length;
  }
  for (const r of [...replacements].sort((a, b) => b.at - a.at)) lines.splice(r.at, r.remove, ...r.insert);
  return withFinalNewline(lines.join('\n'));
}

/** The chunk's new lines, with context lines taken from the file (matching may have ignored their whitespace). */
function keepContext(lines: readonly string[], at: number, chunk: PatchChunk): string[] {
  const out: string[] = [];
  let k = at;
  for (const line of chunk.body) {
    if (line.mark === ' ') out.push(lines[k++]!);
    else if (line.mark === '-') k++;
    else out.push(line.text);
  }
  return out;
}

/** First index ≥ `from` where `pattern` matches: exactly, then ignoring trailing, then surrounding whitespace. */
function seek(lines: readonly string[], pattern: readonly string[], from: number, atEnd: boolean): number {
  const normalizers = [(s: string) => s, (s: string) => s.trimEnd(), (s: string) => s.trim()];
  for (const normalize of normalizers) {
    const matches = (start: number) => pattern.every((p, k) => normalize(lines[start + k]!) === normalize(p));
    if (atEnd) {
      const start = lines.length - pattern.length;
      if (start >= from && matches(start)) return start;
    }
    for (let start = from; start + pattern.length <= lines.length; start++) if (matches(start)) return start;
  }
  return -1;
}

async function commit(view: Map<string, string | null>, files: PatchFiles): Promise<void> {
  const done: { path: string; before: string | null }[] = [];
  try {
    for (const [path, content] of view) {
      const before = await files.read(path);
      if (content === null) await files.remove(path);
      else await files.write(path, content);
      done.push({ path, before });
    }
  } catch (error) {
    const unrestored: { path: string; error: string }[] = [];
    for (const { path, before } of done.reverse()) {
      await (before === null ? files.remove(path) : files.write(path, before)).catch((undo: unknown) =>
        unrestored.push({ path, error: errorMessage(undo) }),
      );
    }
    // "Nothing was changed" would be false now: say which files keep the patch, and keep the failure as the cause.
    if (unrestored.length) {
      throw new ToolSearchError(
        FsErrors.PATCH_ROLLBACK_FAILED,
        `apply_patch failed (${errorMessage(error)}) and could not restore ${unrestored.map((u) => u.path).join(', ')}: those files keep the patched content`,
        { cause: error, details: { unrestored } },
      );
    }
    throw error;
  }
}

function withFinalNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

export function conflict(path: string, why: string): ToolSearchError {
  return new ToolSearchError(FsErrors.PATCH_CONFLICT, `Patch does not apply to ${path}: ${why}; nothing was changed`, {
    details: { path },
  });
}
