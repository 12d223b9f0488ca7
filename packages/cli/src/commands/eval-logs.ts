/**
 * `eval --from-logs <dir or file>`: the eval set hidden in session logs. Every
 * `*.jsonl` session log in a directory (or the one file given), in the
 * telemetry plugin's format, is read; each logged search that a tool call
 * followed becomes a query whose relevant tool is the one called
 * (`evalSetFromLog` in @tool-search/telemetry says how a call is paired with a
 * query), and each such call, in log order, a lesson for the learned signal
 * (`SearchCallPairer` of @tool-search/plugin-learning, as the live plugin pairs them).
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { SearchCallPairer } from '@tool-search/preset';
import { evalSetFromLog, sessionLogEntries, type SessionLogEntry } from '@tool-search/telemetry';
import { CliInputError } from '../io.js';
import type { LoadedQueries } from './eval-run.js';

/** A logged search followed by a call: what the learned signal learns from. */
export interface LoggedCall {
  /** When the call was logged (ms). */
  readonly t: number;
  readonly agentId: string | undefined;
  readonly query: string;
  readonly tool: string;
  /** The called tool's rank in the logged search (as the model was shown it), or null when it was not found. */
  readonly loggedRank: number | null;
}

export interface LoadedLogs extends LoadedQueries {
  readonly calls: readonly LoggedCall[];
}

/** The entries that pair a search with the call it led to (all `evalSetFromLog` and `loggedCalls` read). */
const PAIRING_TYPES: ReadonlySet<string> = new Set(['run-start', 'search', 'tool-call', 'run-end']);

export async function queriesFromLogs(target: string): Promise<LoadedLogs> {
  const files = await logFiles(target);
  const scored = [];
  const calls: LoggedCall[] = [];
  for (const file of files) {
    const entries: SessionLogEntry[] = [];
    try {
      // Streamed, keeping only what pairs searches with calls: a log's provider requests and results can be large.
      for await (const entry of sessionLogEntries(file)) if (PAIRING_TYPES.has(entry.type)) entries.push(entry);
    } catch (error) {
      // A garbled log keeps its own code (SESSION_LOG_INVALID); an unreadable one is an input error.
      if (ToolSearchError.isInstance(error)) throw error;
      throw new CliInputError(`cannot read the session log ${file}: ${errorMessage(error)}`, { cause: error });
    }
    scored.push(...evalSetFromLog(entries));
    calls.push(...loggedCalls(entries));
  }
  if (scored.length === 0)
    throw new CliInputError(`no logged search in ${target} was followed by a tool call: nothing to evaluate`);
  calls.sort((a, b) => a.t - b.t);
  return {
    scored: scored.map((q, i) => ({ id: `log-${i + 1}`, query: q.query, relevant: q.relevant })),
    dropped: 0,
    calls,
  };
}

async function logFiles(target: string): Promise<string[]> {
  let info;
  try {
    info = await stat(target);
  } catch (error) {
    throw new CliInputError(
      `cannot read the session logs at ${target}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  if (info.isFile()) return [target];
  const files = (await readdir(target)).filter((file) => file.endsWith('.jsonl')).sort();
  if (files.length === 0)
    throw new CliInputError(
      `${target} has no session logs (*.jsonl); set telemetry.sessionLog.dir (or session.logDir) and run a session first`,
    );
  return files.map((file) => path.join(target, file));
}

/** The calls of one log that answer a search, as the live plugin pairs them (ok calls only). */
function loggedCalls(entries: readonly SessionLogEntry[]): LoggedCall[] {
  const pairer = new SearchCallPairer();
  const agents = new Map<string, string | undefined>();
  const out: LoggedCall[] = [];
  for (const entry of entries) {
    if (entry.type === 'run-start') agents.set(entry.runId, entry.agentId);
    else if (entry.type === 'search')
      pairer.search(
        entry.runId,
        entry.results ?? (entry.queries.length === 1 ? [{ query: entry.queries[0]!, hits: entry.hits }] : []),
      );
    else if (entry.type === 'tool-call' && entry.status === 'ok') {
      const paired = pairer.call(entry.runId, entry.toolId);
      const t = Date.parse(entry.ts);
      if (paired && Number.isFinite(t))
        out.push({
          t,
          agentId: agents.get(entry.runId),
          query: paired.query,
          tool: entry.toolId,
          loggedRank: paired.rank,
        });
    } else if (entry.type === 'run-end') pairer.endRun(entry.runId);
  }
  return out;
}
