/**
 * `tool-search eval (--queries Q.json | --from-logs DIR|FILE) [--catalog C.json | --config F] [--limit K] [--json]`:
 * search quality on the user's own catalog. This file registers the command; what it runs is eval-run.ts, loaded
 * when it runs (the index, the metrics, the preset and the session-log readers stay unloaded for `eval --help`).
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { withJsonOption, withRunOptions, type JsonFlag, type RunFlags } from '../options.js';

export interface EvalFlags extends RunFlags, JsonFlag {
  readonly queries?: string;
  readonly fromLogs?: string;
  readonly embeddings?: string;
  readonly catalog?: string;
  readonly limit?: string;
  readonly train?: string;
  readonly scope?: string;
}

/** Ranked ids shown per query when `--limit` is not given. */
export const DEFAULT_LIMIT = 10;

export function registerEvalCommands(program: Command, io: CliIO): void {
  withJsonOption(
    withRunOptions(
      program
        .command('eval')
        .description('measure search quality (Recall@1/5/10, MRR) on your catalog with labeled queries')
        .option(
          '-q, --queries <file>',
          'JSON list of { query, relevant: [ids] } (tool ids, or server::tool for snapshots)',
        )
        .option(
          '--from-logs <path>',
          "build the queries from session logs (a folder of *.jsonl, or one file): each search a call followed, the called tool relevant; also shows the learned signal's effect",
        )
        .option(
          '--train <on>',
          'with --from-logs: train the learned signal on the "earlier" calls of the log (default) or all "others" (leave-one-out)',
        )
        .option('--scope <scope>', 'with --from-logs: learn per "agent" (default) or for the whole "deployment"')
        .option(
          '--embeddings <file>',
          'also rank with an embedder (plugin-embeddings options, or a config with tools.toolSearch.embeddings): lexical, dense and fused side by side',
        )
        .option('--catalog <file>', 'evaluate a catalog snapshot (tools export --full) instead of the live catalog')
        .option('-k, --limit <k>', `ranked ids to show per query (default ${DEFAULT_LIMIT})`),
    ),
  ).action(async (flags: EvalFlags) => (await import('./eval-run.js')).runEval(flags, io));
}
