/**
 * Parses the apply_patch envelope (OpenAI's Codex format, as OpenClaw's
 * `apply_patch` takes it):
 *
 *   *** Begin Patch
 *   *** Add File: <path>        then `+` lines: the new file
 *   *** Delete File: <path>
 *   *** Update File: <path>
 *   *** Move to: <path>         optional, right after Update File
 *   @@ [anchor line]            starts a chunk; ' ' context, '-' removed, '+' added lines
 *   *** End of File             optional: the chunk must match at the end of the file
 *   *** End Patch
 *
 * Anything else is PATCH_INVALID with the 1-based line number.
 */
import { ToolSearchError } from '@tool-search/kernel';
import { FsErrors } from './errors.js';

export interface PatchChunk {
  /** The text after `@@`: a line to seek to before matching (e.g. a function header). */
  readonly anchor?: string;
  readonly oldLines: readonly string[];
  readonly newLines: readonly string[];
  /** The chunk line by line, so context lines keep the file's own text when applied. */
  readonly body: readonly { readonly mark: ' ' | '-' | '+'; readonly text: string }[];
  /** `*** End of File` followed the chunk. */
  readonly atEnd: boolean;
}

export type PatchOp =
  | { readonly kind: 'add'; readonly path: string; readonly lines: readonly string[] }
  | { readonly kind: 'delete'; readonly path: string }
  | {
      readonly kind: 'update';
      readonly path: string;
      readonly moveTo?: string;
      readonly chunks: readonly PatchChunk[];
    };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARK = '*** End of File';

export function parsePatch(input: string): PatchOp[] {
  const lines = input.replace(/\r\n/g, '\n').split('\n');
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  let first = 0;
  while (first < lines.length && lines[first]!.trim() === '') first++;
  if (lines[first]?.trim() !== BEGIN) throw invalid(first + 1, `the patch must start with "${BEGIN}"`);
  if (lines.length - 1 <= first || lines[lines.length - 1]!.trim() !== END)
    throw invalid(lines.length, `the patch must end with "${END}"`);
  const ops: PatchOp[] = [];
  let i = first + 1;
  const last = lines.length - 1;
  while (i < last) {
    const line = lines[i]!;
    if (line.startsWith(ADD)) {
      const path = header(line, ADD, i);
      const body: string[] = [];
      for (i++; i < last && !isFileHeader(lines[i]!); i++) {
        if (!lines[i]!.startsWith('+')) throw invalid(i + 1, 'every line of an added file starts with "+"');
        body.push(lines[i]!.slice(1));
      }
      ops.push({ kind: 'add', path, lines: body });
    } else if (line.startsWith(DELETE)) {
      ops.push({ kind: 'delete', path: header(line, DELETE, i) });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const path = header(line, UPDATE, i);
      i++;
      let moveTo: string | undefined;
      if (lines[i]?.startsWith(MOVE)) moveTo = header(lines[i++]!, MOVE, i - 1);
      const parsed = parseChunks(lines, i, last);
      if (!parsed.chunks.length && moveTo === undefined) throw invalid(i + 1, `"${UPDATE}${path}" has no @@ chunk`);
      ops.push({ kind: 'update', path, ...(moveTo !== undefined ? { moveTo } : {}), chunks: parsed.chunks });
      i = parsed.next;
    } else if (line.trim() === '') {
      i++;
    } else {
      throw invalid(i + 1, `expected "${ADD}", "${DELETE}" or "${UPDATE}", got ${JSON.stringify(line.slice(0, 80))}`);
    }
  }
  if (!ops.length) throw invalid(first + 1, 'the patch changes no file');
  return ops;
}

function parseChunks(lines: readonly string[], from: number, last: number): { chunks: PatchChunk[]; next: number } {
  const chunks: PatchChunk[] = [];
  let i = from;
  while (i < last && !isFileHeader(lines[i]!)) {
    const line = lines[i]!;
    let anchor: string | undefined;
    if (line.startsWith('@@')) {
      const text = line.slice(2).trim();
      if (text) anchor = text;
      i++;
    } else if (chunks.length) {
      throw invalid(i + 1, 'a new chunk starts with "@@"');
    }
    const oldLines: string[] = [];
    const newLines: string[] = [];
    const body: { mark: ' ' | '-' | '+'; text: string }[] = [];
    let atEnd = false;
    for (; i < last && !lines[i]!.startsWith('@@') && !isFileHeader(lines[i]!); i++) {
      const l = lines[i]!;
      if (l === EOF_MARK) {
        atEnd = true;
        i++;
        break;
      }
      const mark = l[0];
      // An empty line inside a chunk is an empty context line (editors strip the leading space).
      if (l === '' || mark === ' ') {
        oldLines.push(l.slice(1));
        newLines.push(l.slice(1));
        body.push({ mark: ' ', text: l.slice(1) });
      } else if (mark === '-') {
        oldLines.push(l.slice(1));
        body.push({ mark: '-', text: l.slice(1) });
      } else if (mark === '+') {
        newLines.push(l.slice(1));
        body.push({ mark: '+', text: l.slice(1) });
      } else throw invalid(i + 1, `a chunk line starts with " ", "-" or "+", got ${JSON.stringify(l.slice(0, 80))}`);
    }
    if (!oldLines.length && !newLines.length) throw invalid(i, 'an @@ chunk has no lines');
    chunks.push({ ...(anchor !== undefined ? { anchor } : {}), oldLines, newLines, body, atEnd });
  }
  return { chunks, next: i };
}

function header(line: string, prefix: string, index: number): string {
  const path = line.slice(prefix.length).trim();
  if (!path) throw invalid(index + 1, `"${prefix.trim()}" needs a path`);
  return path;
}

function isFileHeader(line: string): boolean {
  return line.startsWith(ADD) || line.startsWith(DELETE) || line.startsWith(UPDATE);
}

function invalid(line: number, why: string): ToolSearchError {
  return new ToolSearchError(FsErrors.PATCH_INVALID, `Invalid patch at line ${line}: ${why}`, { details: { line } });
}
