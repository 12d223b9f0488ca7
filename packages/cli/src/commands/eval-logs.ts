/**
 * `eval --from-logs DIR`: the eval set hidden in session logs. Every `*.jsonl`
 * session log in DIR (the telemetry plugin's format) is read, and each logged
 * search that a tool call followed becomes a query whose relevant tool is the
 * one called (`evalSetFromLog` in @tool-search/telemetry says how a call is
 * paired with a query).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ToolSearchError } from '@tool-search/kernel';
import { evalSetFromLog, readSessionLog } from '@tool-search/telemetry';
import { CliInputError } from '../io.js';
import type { LoadedQueries } from './eval.js';

export async function queriesFromLogs(dir: string): Promise<LoadedQueries> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((file) => file.endsWith('.jsonl')).sort();
  } catch (error) {
    throw new CliInputError(`cannot read the log directory ${dir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (files.length === 0) throw new CliInputError(`${dir} has no session logs (*.jsonl); set telemetry.sessionLog.dir (or session.logDir) and run a session first`);
  const scored = [];
  for (const file of files) {
    try {
      scored.push(...evalSetFromLog(await readSessionLog(path.join(dir, file))));
    } catch (error) {
      if (ToolSearchError.isInstance(error)) throw new CliInputError(error.message);
      throw error;
    }
  }
  if (scored.length === 0) throw new CliInputError(`no logged search in ${dir} was followed by a tool call: nothing to evaluate`);
  return { scored: scored.map((q, i) => ({ id: `log-${i + 1}`, query: q.query, relevant: q.relevant })), dropped: 0 };
}
