/**
 * Session logs for the timeline: the telemetry plugin's JSONL files in a
 * folder (`gateway.sessions.dir`, `session.logDir`), and the session records
 * of a `SessionStore` (the Redis store replicas share). A log is named by its
 * file (`<id>.jsonl`), never by a path from the request, so nothing outside
 * the folder can be read. Only regular files are logs: a FIFO, socket, device,
 * folder or symlink in the folder is skipped unopened (opening a FIFO waits for
 * a writer, and each waiting open holds one of libuv's four file threads).
 */
import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolSearchError } from '@tool-search/kernel';
import type { SessionStore } from '@tool-search/sessions';
import { readSessionLog, summarizeSession } from '@tool-search/telemetry';
import { InspectErrors } from './errors.js';
import type { SessionListItem, SessionView } from './types.js';

export interface SessionSources {
  /** Folder of JSONL session logs. */
  readonly dir?: string;
  /** Sessions of the gateway's store (`StateSessionStore` over Redis, or in memory). */
  readonly store?: SessionStore;
}

const LOG_NAME = /^[A-Za-z0-9_-]{1,200}$/;

export async function listSessions(sources: SessionSources): Promise<SessionListItem[]> {
  const items: SessionListItem[] = [];
  if (sources.dir !== undefined) {
    const files = await readdir(sources.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    for (const file of files.filter((name) => name.endsWith('.jsonl'))) {
      const id = file.slice(0, -'.jsonl'.length);
      if (!LOG_NAME.test(id)) continue;
      const path = join(sources.dir, file);
      const info = await regularFile(path);
      if (!info) continue;
      const entries = await readSessionLog(path).catch(() => undefined); // an unreadable log is listed with status 'unreadable', not dropped
      if (!entries) {
        items.push({ id, origin: 'log', updated: info.mtime.toISOString(), status: 'unreadable' });
        continue;
      }
      const summary = summarizeSession(entries);
      const zeroHit = entries.reduce(
        (n, e) => n + (e.type === 'search' ? (e.results ?? []).filter((r) => r.zeroHit).length : 0),
        0,
      );
      items.push({
        id,
        origin: 'log',
        updated: info.mtime.toISOString(),
        entries: entries.length,
        calls: summary.calls,
        searches: summary.searches,
        zeroHit,
      });
    }
  }
  if (sources.store) {
    for (const record of await sources.store.list()) {
      items.push({
        id: record.sessionId,
        origin: 'store',
        updated: new Date(record.updatedAt).toISOString(),
        status: record.status,
      });
    }
  }
  return items.sort((a, b) => b.updated.localeCompare(a.updated));
}

export async function readSession(sources: SessionSources, id: string, origin: 'log' | 'store'): Promise<SessionView> {
  if (origin === 'store') {
    const record = sources.store ? await sources.store.get(id) : undefined;
    if (!record) throw notFound(id);
    return { id, origin, entries: [], record, transcript: await sources.store!.transcript(id) };
  }
  if (sources.dir === undefined || !LOG_NAME.test(id)) throw notFound(id);
  const path = join(sources.dir, `${id}.jsonl`);
  if (!(await regularFile(path))) throw notFound(id);
  const entries = await readSessionLog(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw notFound(id);
    throw error;
  });
  return { id, origin, entries, summary: summarizeSession(entries) };
}

/** The file's stats when it is a regular file (not followed if a symlink); undefined for anything else or nothing. */
async function regularFile(path: string): Promise<Stats | undefined> {
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined; // removed since the folder was listed
    throw error;
  });
  return info?.isFile() ? info : undefined;
}

function notFound(id: string): ToolSearchError {
  return new ToolSearchError(InspectErrors.INSPECT_NOT_FOUND, `no session "${id}"`, { details: { session: id } });
}
