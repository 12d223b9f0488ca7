/**
 * The JSONL session log: `<dir>/<sessionId>.jsonl`, one entry per line,
 * appended in order. Session ids come from callers, so the file name is
 * sanitized: a session id can never name a file outside `dir`.
 */
import { createHash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { appendFile, mkdir, open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolSearchError } from '@tool-search/kernel';
import type { SessionLogEntry } from './entries.js';
import { SessionLogErrors } from './errors.js';

/** Where entries go. `write` calls for one run are made in order, one at a time. */
export interface SessionLogWriter {
  write(entry: SessionLogEntry): Promise<void> | void;
}

export interface JsonlSessionLog extends SessionLogWriter {
  readonly dir: string;
  /** The file a session's entries are appended to. */
  pathFor(sessionId: string): string;
}

export function createSessionLogWriter(options: { readonly dir: string }): JsonlSessionLog {
  const { dir } = options;
  let ready: Promise<unknown> | undefined;
  const pathFor = (sessionId: string) => join(dir, sessionFileName(sessionId));
  return {
    dir,
    pathFor,
    async write(entry) {
      ready ??= mkdir(dir, { recursive: true });
      await ready;
      await appendFile(pathFor(entry.sessionId), `${JSON.stringify(entry)}\n`, 'utf8');
    },
  };
}

/**
 * A safe file name for a session id: kept as is when it is plain
 * (`[A-Za-z0-9_-]`, at most 100 characters), otherwise sanitized and suffixed
 * with a hash of the original so distinct ids never share a file.
 */
export function sessionFileName(sessionId: string): string {
  if (/^[A-Za-z0-9_-]{1,100}$/.test(sessionId)) return `${sessionId}.jsonl`;
  const base = sessionId.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 80) || 'session';
  const hash = createHash('sha256').update(sessionId).digest('hex').slice(0, 12);
  return `${base}-${hash}.jsonl`;
}

/** How a session log file is opened. */
export interface SessionLogReadOptions {
  /** Refuse a symlink as the file itself (`O_NOFOLLOW`): for files found in a folder rather than named by the user. */
  readonly noFollow?: boolean;
}

/**
 * Reads a session log. A last line without its newline (a write cut short) is
 * ignored; any other line that is not a JSON entry throws `SESSION_LOG_INVALID`.
 */
export async function readSessionLog(file: string, options: SessionLogReadOptions = {}): Promise<SessionLogEntry[]> {
  const entries: SessionLogEntry[] = [];
  for await (const entry of sessionLogEntries(file, options)) entries.push(entry);
  return entries;
}

/** A line longer than this is not an entry this plugin wrote (and would otherwise be held whole in memory). */
const MAX_LINE_CHARS = 16 * 1024 * 1024;

/**
 * The entries of a session log, read as a stream: memory holds one chunk and
 * one line, whatever the file's size, and a long line is joined once (linear, not re-split per chunk). Only a
 * regular file is read: it is opened without blocking (`O_NONBLOCK`: a FIFO would otherwise wait for a writer) and
 * anything else is `SESSION_LOG_NOT_A_FILE`. Same rules as `readSessionLog`.
 */
export async function* sessionLogEntries(
  file: string,
  options: SessionLogReadOptions = {},
): AsyncGenerator<SessionLogEntry> {
  const handle = await openRegular(file, options);
  let lineNumber = 0;
  const invalid = (why: string): ToolSearchError =>
    new ToolSearchError(
      SessionLogErrors.SESSION_LOG_INVALID,
      `Line ${lineNumber} of ${file} ${why}; the file was not written by this telemetry plugin`,
      {
        details: { file, line: lineNumber },
      },
    );
  const parse = (line: string): SessionLogEntry | undefined => {
    lineNumber++;
    if (!line.trim()) return undefined;
    const entry = parseEntry(line);
    if (!entry) throw invalid('is not a session log entry');
    return entry;
  };
  // The pieces of the line being read: joined once when its newline comes, so a 16 MB line costs 16 MB of copying.
  let pieces: string[] = [];
  let pending = 0;
  try {
    for await (const chunk of handle.createReadStream({
      encoding: 'utf8',
      autoClose: false,
    }) as AsyncIterable<string>) {
      let start = 0;
      for (let end = chunk.indexOf('\n'); end >= 0; end = chunk.indexOf('\n', start)) {
        pieces.push(chunk.slice(start, end));
        const line = pieces.length === 1 ? pieces[0]! : pieces.join('');
        pieces = [];
        pending = 0;
        start = end + 1;
        const entry = parse(line);
        if (entry) yield entry;
      }
      if (start < chunk.length) {
        pieces.push(chunk.slice(start));
        pending += chunk.length - start;
      }
      if (pending > MAX_LINE_CHARS) {
        lineNumber++;
        throw invalid(`is over ${MAX_LINE_CHARS} characters long`);
      }
    }
  } finally {
    await handle.close();
  }
  // What follows the last newline is a write cut short unless it parses.
  const rest = pieces.join('');
  const last = rest.trim() ? parseEntry(rest) : undefined;
  if (last) yield last;
}

/** Opens `file` for reading only if it is a regular file, never blocking on a FIFO (or a device). */
async function openRegular(file: string, options: SessionLogReadOptions): Promise<FileHandle> {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0);
  let handle: FileHandle;
  try {
    handle = await open(file, flags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP' && options.noFollow) throw notAFile(file, 'symlink', error);
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw notAFile(file, 'folder', error);
    throw error;
  }
  const info = await handle.stat();
  if (info.isFile()) return handle;
  await handle.close();
  throw notAFile(file, kindOf(info));
}

function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'fifo';
  if (info.isSocket()) return 'socket';
  if (info.isDirectory()) return 'folder';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'device';
  return 'other';
}

function notAFile(file: string, kind: string, cause?: unknown): ToolSearchError {
  return new ToolSearchError(
    SessionLogErrors.SESSION_LOG_NOT_A_FILE,
    `${file} is not a regular file (${kind}); a session log is one`,
    { details: { file, kind }, ...(cause === undefined ? {} : { cause }) },
  );
}

function parseEntry(line: string): SessionLogEntry | undefined {
  try {
    const value: unknown = JSON.parse(line);
    const record = value as Partial<Record<'ts' | 'type' | 'runId' | 'sessionId', unknown>>;
    if (typeof value !== 'object' || value === null) return undefined;
    if (typeof record.type !== 'string' || typeof record.runId !== 'string' || typeof record.sessionId !== 'string')
      return undefined;
    return value as SessionLogEntry;
  } catch {
    return undefined;
  }
}
