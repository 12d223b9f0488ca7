/**
 * The JSONL session log: `<dir>/<sessionId>.jsonl`, one entry per line,
 * appended in order. Session ids come from callers, so the file name is
 * sanitized: a session id can never name a file outside `dir`.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolSearchError } from '@tool-search/kernel';
import type { SessionLogEntry } from './entries.js';
import { TelemetryErrors } from './errors.js';

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

/**
 * Reads a session log. A last line without its newline (a write cut short) is
 * ignored; any other line that is not a JSON entry throws `SESSION_LOG_INVALID`.
 */
export async function readSessionLog(file: string): Promise<SessionLogEntry[]> {
  const entries: SessionLogEntry[] = [];
  for await (const entry of sessionLogEntries(file)) entries.push(entry);
  return entries;
}

/** A line longer than this is not an entry this plugin wrote (and would otherwise be held whole in memory). */
const MAX_LINE_CHARS = 16 * 1024 * 1024;

/**
 * The entries of a session log, read as a stream: memory holds one chunk and
 * one line, whatever the file's size. Same rules as `readSessionLog`.
 */
export async function* sessionLogEntries(file: string): AsyncGenerator<SessionLogEntry> {
  let rest = '';
  let lineNumber = 0;
  const invalid = (why: string): ToolSearchError =>
    new ToolSearchError(
      TelemetryErrors.SESSION_LOG_INVALID,
      `Line ${lineNumber} of ${file} ${why}; the file was not written by this telemetry plugin`,
      {
        details: { file, line: lineNumber },
      },
    );
  for await (const chunk of createReadStream(file, { encoding: 'utf8' }) as AsyncIterable<string>) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      lineNumber++;
      if (!line.trim()) continue;
      const entry = parseEntry(line);
      if (!entry) throw invalid('is not a session log entry');
      yield entry;
    }
    if (rest.length > MAX_LINE_CHARS) {
      lineNumber++;
      throw invalid(`is over ${MAX_LINE_CHARS} characters long`);
    }
  }
  // What follows the last newline is a write cut short unless it parses.
  const last = rest.trim() ? parseEntry(rest) : undefined;
  if (last) yield last;
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
