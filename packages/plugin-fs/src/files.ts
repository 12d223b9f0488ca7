/**
 * `read`, `write` and `edit` against real files, every path resolved inside
 * the workspace first. `read` pages by lines and is bounded; `write` and
 * `edit` replace the file atomically.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { extname } from 'node:path';
import { ErrorCode, ToolSearchError, type ToolResult } from '@tool-search/kernel';
import { resolveInWorkspace, writeFileAtomic } from '@tool-search/workspace';

/** Lines `read` returns without a `limit`, and the most characters it returns at once. */
export const READ_DEFAULT_LINES = 2000;
export const READ_MAX_CHARS = 50_000;
/** Largest image `read` returns as an attachment. */
export const READ_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const IMAGE_TYPES: Readonly<Record<string, string>> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' };

export async function readTool(root: string, args: { path: string; offset?: number; limit?: number }): Promise<ToolResult> {
  const file = await existingFile(root, args.path);
  const mimeType = IMAGE_TYPES[extname(file).toLowerCase()];
  if (mimeType) {
    const { size } = await stat(file);
    if (size > READ_MAX_IMAGE_BYTES) return text(`${args.path} is an image of ${size} bytes, over the ${READ_MAX_IMAGE_BYTES}-byte limit`);
    const data = await readFile(file);
    return { content: [{ type: 'image', data: data.toString('base64'), mimeType }] };
  }
  const start = args.offset ?? 1;
  const { lines, more, total } = await readLines(file, start, args.limit ?? READ_DEFAULT_LINES);
  if (start > 1 && !lines.length && !more) return text(`${args.path} has ${total} lines; offset ${start} is past the end`);
  let out = lines.join('\n');
  if (more) out += `\n\n[more lines in ${args.path}; read with offset=${start + lines.length} to continue]`;
  return text(out);
}

/**
 * Lines `from` (1-based) on, at most `limit` lines and READ_MAX_CHARS characters, streamed: a large file is read
 * only as far as needed. `more` says something follows; `total` counts lines only when the end was reached.
 */
async function readLines(file: string, from: number, limit: number): Promise<{ lines: string[]; more: boolean; total: number }> {
  const reader = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  const lines: string[] = [];
  let chars = 0;
  let index = 0;
  try {
    for await (const line of reader) {
      index++;
      if (index < from) continue;
      if (lines.length >= limit || (lines.length > 0 && chars + line.length + 1 > READ_MAX_CHARS)) return { lines, more: true, total: index };
      const kept = line.slice(0, READ_MAX_CHARS);
      lines.push(kept);
      chars += kept.length + 1;
    }
  } finally {
    reader.close();
  }
  return { lines, more: false, total: index };
}

export async function writeTool(root: string, args: { path: string; content: string }): Promise<ToolResult> {
  const target = resolveInWorkspace(root, args.path);
  const info = await stat(target.absolute).catch(() => undefined);
  if (info?.isDirectory()) throw new ToolSearchError(ErrorCode.FILE_NOT_FOUND, `${args.path} is a folder, not a file`, { details: { path: args.path } });
  await writeFileAtomic(target.absolute, args.content);
  return text(`Wrote ${Buffer.byteLength(args.content)} bytes to ${target.relative}`);
}

export async function editTool(root: string, args: { path: string; oldText: string; newText: string }): Promise<ToolResult> {
  const file = await existingFile(root, args.path);
  const content = await readFile(file, 'utf8');
  const at = content.indexOf(args.oldText);
  if (at < 0) {
    throw new ToolSearchError(ErrorCode.EDIT_NO_MATCH, `oldText was not found in ${args.path}; read the file and copy the text exactly`, { details: { path: args.path } });
  }
  if (content.indexOf(args.oldText, at + 1) >= 0) {
    const count = content.split(args.oldText).length - 1;
    throw new ToolSearchError(ErrorCode.EDIT_NOT_UNIQUE, `oldText occurs ${count} times in ${args.path}; include more surrounding lines so it matches once`, {
      details: { path: args.path, count },
    });
  }
  await writeFileAtomic(file, content.slice(0, at) + args.newText + content.slice(at + args.oldText.length));
  const line = content.slice(0, at).split('\n').length;
  return text(`Edited ${args.path} at line ${line}`);
}

async function existingFile(root: string, path: string): Promise<string> {
  const target = resolveInWorkspace(root, path);
  const info = target.exists ? await stat(target.absolute).catch(() => undefined) : undefined;
  if (!info?.isFile()) {
    throw new ToolSearchError(ErrorCode.FILE_NOT_FOUND, `${path} ${info ? 'is not a regular file' : 'does not exist in the workspace'}`, { details: { path } });
  }
  return target.absolute;
}

export function text(value: string): ToolResult {
  return { content: [{ type: 'text', text: value }] };
}
