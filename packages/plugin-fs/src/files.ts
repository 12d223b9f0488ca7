/**
 * `read`, `write` and `edit` against real files, every path resolved inside
 * the workspace first. `read` pages by lines and is bounded; `write` and
 * `edit` replace the file atomically.
 */
import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { extname } from 'node:path';
import { ToolSearchError, type ToolResult } from '@tool-search/kernel';
import { openInWorkspace, writeInWorkspace, WorkspaceErrors } from '@tool-search/workspace';
import { FsErrors } from './errors.js';

/** Lines `read` returns without a `limit`, and the most characters it returns at once (also the most of one line). */
export const READ_DEFAULT_LINES = 2000;
export const READ_MAX_CHARS = 50_000;
/** Largest image `read` returns as an attachment. */
export const READ_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Largest file `edit` and `apply_patch` load (they rewrite the whole file). */
export const EDIT_MAX_BYTES = 64 * 1024 * 1024;
/** Bytes `read` takes from the file at a time: memory stays bounded whatever the file holds. */
const READ_CHUNK_BYTES = 64 * 1024;

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

export async function readTool(
  root: string,
  args: { path: string; offset?: number; limit?: number },
  signal?: AbortSignal,
): Promise<ToolResult> {
  const { handle, relative } = await existingFile(root, args.path);
  try {
    const mimeType = IMAGE_TYPES[extname(relative).toLowerCase()];
    if (mimeType) {
      const { size } = await handle.stat();
      if (size > READ_MAX_IMAGE_BYTES)
        return text(`${args.path} is an image of ${size} bytes, over the ${READ_MAX_IMAGE_BYTES}-byte limit`);
      const data = await handle.readFile();
      return { content: [{ type: 'image', data: data.toString('base64'), mimeType }] };
    }
    const start = args.offset ?? 1;
    const { lines, more, total, cut } = await readLines(handle, start, args.limit ?? READ_DEFAULT_LINES, signal);
    if (start > 1 && !lines.length && !more)
      return text(`${args.path} has ${total} lines; offset ${start} is past the end`);
    let out = lines.join('\n');
    if (cut.length)
      out += `\n\n[line${cut.length > 1 ? 's' : ''} ${cut.join(', ')} cut at ${READ_MAX_CHARS} characters]`;
    if (more) out += `\n\n[more lines in ${args.path}; read with offset=${start + lines.length} to continue]`;
    return text(out);
  } finally {
    await handle.close();
  }
}

/**
 * Lines `from` (1-based) on, at most `limit` lines and READ_MAX_CHARS characters, read in bounded chunks: a large
 * file is read only as far as needed, and no line is ever held longer than READ_MAX_CHARS (a longer one is cut and
 * listed in `cut`), so a file that is one 600 MB line costs 64 KB of memory, not a string past V8's limit.
 * `more` says something follows; `total` counts lines only when the end was reached. Lines end at `\n`; a `\r`
 * before it is dropped.
 */
async function readLines(handle: FileHandle, from: number, limit: number, signal?: AbortSignal) {
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  const lines: string[] = [];
  const cut: number[] = [];
  let chars = 0;
  let index = 1; // the line being read
  let current = '';
  let currentCut = false;
  let open = false; // the current line has content
  let position = 0;
  /** Ends the current line; false when the page is full (the line belongs to the next page). */
  const finish = (): boolean => {
    if (index >= from) {
      const line = current.endsWith('\r') && !currentCut ? current.slice(0, -1) : current;
      if (lines.length >= limit || (lines.length > 0 && chars + line.length + 1 > READ_MAX_CHARS)) return false;
      lines.push(line);
      if (currentCut) cut.push(index);
      chars += line.length + 1;
    }
    index++;
    current = '';
    currentCut = false;
    open = false;
    return true;
  };
  /** Adds to the current line; false when it can no longer fit on this page (stop reading: the page is full). */
  const take = (piece: string): boolean => {
    if (!piece) return true;
    open = true;
    if (index < from || currentCut) return true;
    const room = READ_MAX_CHARS - current.length;
    if (piece.length > room) currentCut = true;
    current += piece.length > room ? piece.slice(0, room) : piece;
    return lines.length < limit && (lines.length === 0 || chars + current.length + 1 <= READ_MAX_CHARS + 1);
  };
  for (;;) {
    signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    const chunk = bytesRead ? decoder.write(buffer.subarray(0, bytesRead)) : decoder.end();
    position += bytesRead;
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
      if (!take(chunk.slice(start, nl)) || !finish()) return { lines, more: true, total: index, cut };
      start = nl + 1;
    }
    if (!take(chunk.slice(start))) return { lines, more: true, total: index, cut };
    if (!bytesRead) break;
  }
  if (open && !finish()) return { lines, more: true, total: index, cut };
  return { lines, more: false, total: index - 1, cut };
}

export async function writeTool(root: string, args: { path: string; content: string }): Promise<ToolResult> {
  const { relative } = await writeInWorkspace(root, args.path, args.content);
  return text(`Wrote ${Buffer.byteLength(args.content)} bytes to ${relative}`);
}

export async function editTool(
  root: string,
  args: { path: string; oldText: string; newText: string },
): Promise<ToolResult> {
  const { handle, relative } = await existingFile(root, args.path);
  let content: string;
  try {
    content = await readWhole(handle, args.path);
  } finally {
    await handle.close();
  }
  const at = content.indexOf(args.oldText);
  if (at < 0) {
    throw new ToolSearchError(
      FsErrors.EDIT_NO_MATCH,
      `oldText was not found in ${args.path}; read the file and copy the text exactly`,
      { details: { path: args.path } },
    );
  }
  if (content.indexOf(args.oldText, at + 1) >= 0) {
    const count = content.split(args.oldText).length - 1;
    throw new ToolSearchError(
      FsErrors.EDIT_NOT_UNIQUE,
      `oldText occurs ${count} times in ${args.path}; include more surrounding lines so it matches once`,
      {
        details: { path: args.path, count },
      },
    );
  }
  await writeInWorkspace(root, relative, content.slice(0, at) + args.newText + content.slice(at + args.oldText.length));
  const line = content.slice(0, at).split('\n').length;
  return text(`Edited ${args.path} at line ${line}`);
}

/** The whole text of an opened file, refused with FS_FILE_TOO_LARGE past EDIT_MAX_BYTES. */
export async function readWhole(handle: FileHandle, path: string): Promise<string> {
  const { size } = await handle.stat();
  if (size > EDIT_MAX_BYTES) {
    throw new ToolSearchError(
      FsErrors.FS_FILE_TOO_LARGE,
      `${path} has ${size} bytes; edit and apply_patch load files up to ${EDIT_MAX_BYTES} bytes`,
      {
        details: { path, size, max: EDIT_MAX_BYTES },
      },
    );
  }
  return handle.readFile('utf8');
}

/** The regular file at `path`, opened (the caller closes it); FILE_NOT_FOUND when missing, a folder or not a file. */
async function existingFile(root: string, path: string): Promise<{ handle: FileHandle; relative: string }> {
  const opened = await openInWorkspace(root, path);
  if (!opened)
    throw new ToolSearchError(WorkspaceErrors.FILE_NOT_FOUND, `${path} does not exist in the workspace`, {
      details: { path },
    });
  return opened;
}

export function text(value: string): ToolResult {
  return { content: [{ type: 'text', text: value }] };
}
