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
import { EvalSetCollector, sessionLogEntries, TelemetryErrors, type SessionLogEntry } from '@tool-search/telemetry';
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
  /** Notes on paths that were not read (a FIFO, socket or device in the folder): `eval` prints them on stderr. */
  readonly skipped: readonly string[];
}

export async function queriesFromLogs(target: string): Promise<LoadedLogs> {
  const { files, inFolder } = await logFiles(target);
  const scored = [];
  const calls: LoggedCall[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    const queries = new EvalSetCollector();
    const pairs = new LoggedCalls();
    try {
      // Streamed entry by entry: a log of any size is never held whole, nor spread into a call's arguments.
      // A file found in the folder is not followed through a symlink (the telemetry writer makes none).
      for await (const entry of sessionLogEntries(file, { noFollow: inFolder })) {
        queries.add(entry);
        pairs.add(entry);
      }
    } catch (error) {
      if (ToolSearchError.isInstance(error) && error.code === TelemetryErrors.SESSION_LOG_NOT_A_FILE && inFolder) {
        skipped.push(`skipped ${file}: ${errorMessage(error)}`);
        continue;
      }
      // A garbled log keeps its own code (SESSION_LOG_INVALID); an unreadable one is an input error.
      if (ToolSearchError.isInstance(error) && error.code !== TelemetryErrors.SESSION_LOG_NOT_A_FILE) throw error;
      throw new CliInputError(`cannot read the session log ${file}: ${errorMessage(error)}`, { cause: error });
    }
    for (const query of queries.queries()) scored.push(query);
    for (const call of pairs.calls) calls.push(call);
  }
  if (scored.length === 0) {
    const why = skipped.length ? ` (${skipped.join('; ')})` : '';
    throw new CliInputError(`no logged search in ${target} was followed by a tool call: nothing to evaluate${why}`);
  }
  calls.sort((a, b) => a.t - b.t);
  return {
    scored: scored.map((q, i) => ({ id: `log-${i + 1}`, query: q.query, relevant: q.relevant })),
    dropped: 0,
    calls,
    skipped,
  };
}

/** The target itself when it is not a folder (the reader refuses what is not a regular file), else its `*.jsonl`. */
async function logFiles(target: string): Promise<{ files: string[]; inFolder: boolean }> {
  let info;
  try {
    info = await stat(target);
  } catch (error) {
    throw new CliInputError(
      `cannot read the session logs at ${target}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      { cause: error },
    );
  }
  if (!info.isDirectory()) return { files: [target], inFolder: false };
  const files = (await readdir(target)).filter((file) => file.endsWith('.jsonl')).sort();
  if (files.length === 0)
    throw new CliInputError(
      `${target} has no session logs (*.jsonl); set telemetry.sessionLog.dir (or session.logDir) and run a session first`,
    );
  return { files: files.map((file) => path.join(target, file)), inFolder: true };
}

/** The calls of one log that answer a search, as the live plugin pairs them (ok calls only), entry by entry. */
class LoggedCalls {
  readonly calls: LoggedCall[] = [];
  readonly #pairer = new SearchCallPairer();
  readonly #agents = new Map<string, string | undefined>();

  add(entry: SessionLogEntry): void {
    if (entry.type === 'run-start') this.#agents.set(entry.runId, entry.agentId);
    else if (entry.type === 'search')
      this.#pairer.search(
        entry.runId,
        entry.results ?? (entry.queries.length === 1 ? [{ query: entry.queries[0]!, hits: entry.hits }] : []),
      );
    else if (entry.type === 'tool-call' && entry.status === 'ok') {
      const paired = this.#pairer.call(entry.runId, entry.toolId);
      const t = Date.parse(entry.ts);
      if (paired && Number.isFinite(t))
        this.calls.push({
          t,
          agentId: this.#agents.get(entry.runId),
          query: paired.query,
          tool: entry.toolId,
          loggedRank: paired.rank,
        });
    } else if (entry.type === 'run-end') {
      this.#pairer.endRun(entry.runId);
      this.#agents.delete(entry.runId);
    }
  }
}
