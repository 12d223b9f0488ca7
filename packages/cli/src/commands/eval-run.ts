/**
 * What `tool-search eval` runs (eval.ts registers the command and loads this file when it runs):
 * search quality on the user's own catalog, with labeled queries or with the
 * searches of session logs that a call followed (the called tool = relevant). The catalog is the live one of a
 * run (config sources, MCP servers included) or a snapshot file (`tools export
 * --full`, or any file in the snapshot format). The index and the metrics are
 * the ones `npm run bench` uses, so both print the same numbers. With `--from-logs`, also the learned signal's
 * effect on each logged call's rank (eval-learning.ts; `--train earlier|others`, `--scope agent|deployment`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolDescriptor } from '@tool-search/kernel';
import { readSnapshotFile, snapshotDescriptors } from '@tool-search/preset';
import { createToolIndex, evaluate, type EvalQuery, type Evaluation, type Retriever } from '@tool-search/search';
import { CliInputError, writeJson, type CliIO } from '../io.js';
import { readEmbeddingsOptions, renderSideBySide, sideBySide } from './eval-embeddings.js';
import { queriesFromLogs, type LoadedLogs } from './eval-logs.js';
import {
  defaultLearningOptions,
  learningEffect,
  renderLearningEffect,
  type LearningEffect,
  type TrainOn,
} from './eval-learning.js';
import { requireSources, withRun } from '../options.js';
import { DEFAULT_LIMIT, type EvalFlags } from './eval.js';
import { errorMessage } from '@tool-search/kernel';

/** Metrics are always taken at 10 (as the benchmark does); `--limit` only sets how many ranked ids are shown. */
const METRIC_K = 10;
/** No response byte cap: the cap shapes what a model sees, not the ranking being measured. */
export const EVAL_INDEX_OPTIONS = { maxResponseBytes: 1 << 20, maxSearchLimit: 100 } as const;

/** `tool-search eval` once its flags are parsed (eval.ts registers the command). */
export async function runEval(flags: EvalFlags, io: CliIO): Promise<void> {
  const limit = parseLimit(flags.limit);
  if ((flags.queries === undefined) === (flags.fromLogs === undefined))
    throw new CliInputError('give exactly one of --queries <file> and --from-logs <dir>');
  const learning = learningFlags(flags);
  const queries: LoadedQueries | LoadedLogs =
    flags.queries !== undefined
      ? readQueries(path.resolve(io.cwd, flags.queries))
      : await queriesFromLogs(path.resolve(io.cwd, flags.fromLogs!));
  const calls = 'calls' in queries ? (queries as LoadedLogs).calls : undefined;
  for (const note of 'skipped' in queries ? (queries as LoadedLogs).skipped : []) io.stderr.write(`note: ${note}\n`);
  if (flags.catalog !== undefined && flags.config !== undefined)
    throw new CliInputError('use --catalog or --config, not both');
  const embeddings =
    flags.embeddings !== undefined ? readEmbeddingsOptions(path.resolve(io.cwd, flags.embeddings)) : undefined;
  const report = async (descriptors: readonly ToolDescriptor[], form: IdForm): Promise<void> => {
    if (embeddings) {
      const shown = new Map(descriptors.map((tool) => [tool.id, displayId(tool, form)]));
      const result = await sideBySide(
        descriptors,
        queries.scored,
        embeddings,
        (id) => shown.get(id) ?? id,
        EVAL_INDEX_OPTIONS,
      );
      if (flags.json) writeJson(io, result);
      else io.stdout.write(renderSideBySide(result, queries.scored.length, descriptors.length));
      return;
    }
    const result = runEvaluation(descriptors, queries.scored, limit, form);
    const known = new Set(descriptors.map((tool) => displayId(tool, form)));
    const effect: LearningEffect | undefined =
      calls && learning ? learningEffect(calls, result.rankedFor, (id) => known.has(id), learning) : undefined;
    if (flags.json) writeJson(io, { ...toJson(result), ...(effect ? { learning: effect } : {}) });
    else
      io.stdout.write(
        renderText(result, queries, descriptors.length, limit) +
          (effect ? renderLearningEffect(effect, calls!.length) : ''),
      );
    warnUnknown(io, queries.scored, result.known);
  };
  const form = idForm(queries.scored);
  if (flags.catalog !== undefined) {
    await report(
      snapshotDescriptors(readSnapshotFile(path.resolve(io.cwd, flags.catalog))),
      form === 'pair' ? 'snapshot' : 'kernel',
    );
  } else {
    await withRun(flags, io, (run) => {
      requireSources(run, flags, io);
      return report(
        run.catalog.filter((tool) => tool.catalogMode === 'catalog'),
        form,
      );
    });
  }
  if (queries.dropped > 0)
    io.stderr.write(
      `note: ${queries.dropped} ${queries.dropped === 1 ? 'query' : 'queries'} without relevant ids not scored\n`,
    );
}

/** How ranked ids are written: as the query file writes them. */
type IdForm = 'pair' | 'kernel' | 'snapshot';

function idForm(queries: readonly EvalQuery[]): IdForm {
  return queries.some((q) => q.relevant.some((id) => id.includes('::'))) ? 'pair' : 'kernel';
}

function displayId(tool: ToolDescriptor, form: IdForm): string {
  if (form === 'snapshot') return tool.id;
  if (form === 'pair') return `${tool.owner}::${tool.name}`;
  return `${tool.source}:${tool.owner}:${tool.name}`;
}

interface EvalResult {
  readonly evaluation: Evaluation;
  /** Ranked ids per query, `limit` long. */
  readonly ranked: readonly (readonly string[])[];
  readonly byId: ReadonlyMap<string, ToolDescriptor>;
  readonly known: ReadonlySet<string>;
  /** Rank (1-based) of a relevant id among the first 100 hits, per query. */
  readonly rankOf: (queryIndex: number, id: string) => number | undefined;
  /** The first 100 ranked ids of any query (cached). */
  readonly rankedFor: (query: string) => readonly string[];
}

function runEvaluation(
  descriptors: readonly ToolDescriptor[],
  queries: readonly EvalQuery[],
  limit: number,
  form: IdForm,
): EvalResult {
  const index = createToolIndex(descriptors, EVAL_INDEX_OPTIONS);
  const shown = new Map(descriptors.map((tool) => [tool.id, displayId(tool, form)]));
  const byId = new Map(descriptors.map((tool) => [displayId(tool, form), tool]));
  const retriever: Retriever = {
    search: (query, options) => ({
      hits: index
        .search(query, { limit: options?.limit ?? METRIC_K })
        .hits.map((hit) => ({ id: shown.get(hit.id) ?? hit.id })),
    }),
  };
  const evaluation = evaluate(retriever, queries, { k: METRIC_K });
  const deep = new Map<number, readonly string[]>();
  const deepRanked = (i: number): readonly string[] => {
    let ids = deep.get(i);
    if (!ids)
      deep.set(
        i,
        (ids = retriever
          .search(queries[i]!.query, { limit: EVAL_INDEX_OPTIONS.maxSearchLimit })
          .hits.map((hit) => hit.id)),
      );
    return ids;
  };
  const ranked = queries.map((q, i) =>
    limit === METRIC_K ? evaluation.queries[i]!.ranked : deepRanked(i).slice(0, limit),
  );
  const byQuery = new Map<string, readonly string[]>();
  const rankedFor = (query: string): readonly string[] => {
    let ids = byQuery.get(query);
    if (!ids)
      byQuery.set(
        query,
        (ids = retriever.search(query, { limit: EVAL_INDEX_OPTIONS.maxSearchLimit }).hits.map((hit) => hit.id)),
      );
    return ids;
  };
  return {
    evaluation,
    ranked,
    byId,
    known: new Set(byId.keys()),
    rankedFor,
    rankOf: (i, id) => {
      const rank = deepRanked(i).indexOf(id);
      return rank < 0 ? undefined : rank + 1;
    },
  };
}

function toJson(result: EvalResult) {
  const { recallAt1, recallAt5, recallAt10, mrr } = result.evaluation.metrics;
  return {
    metrics: { recallAt1, recallAt5, recallAt10, mrr },
    queries: result.evaluation.queries.map((q, i) => ({
      query: q.query,
      relevant: q.relevant,
      ranked: result.ranked[i]!,
    })),
  };
}

function renderText(result: EvalResult, queries: LoadedQueries, tools: number, limit: number): string {
  const m = result.evaluation.metrics;
  const lines = [
    `${queries.scored.length} queries over ${tools} tools`,
    `Recall@1 ${m.recallAt1.toFixed(3)}  Recall@5 ${m.recallAt5.toFixed(3)}  Recall@10 ${m.recallAt10.toFixed(3)}  MRR ${m.mrr.toFixed(3)}`,
    '',
  ];
  const misses = result.evaluation.queries.flatMap((q, i) => {
    const top5 = new Set(q.ranked.slice(0, 5));
    const missed = q.relevant.filter((id) => !top5.has(id));
    return missed.length ? [{ i, q, missed }] : [];
  });
  lines.push(`Misses (relevant tools outside the top 5): ${misses.length} of ${queries.scored.length} queries`);
  for (const { i, q, missed } of misses) {
    lines.push(`  "${q.query}"`);
    for (const id of missed) {
      const rank = result.rankOf(i, id);
      const tool = result.byId.get(id);
      const where = !tool
        ? 'not in the catalog'
        : rank
          ? `rank ${rank}`
          : `not in the top ${EVAL_INDEX_OPTIONS.maxSearchLimit}`;
      lines.push(
        `    missed ${id} (${where})${tool ? `; words shared with the query: ${shared(q.query, tool) || 'none'}` : ''}`,
      );
    }
    const top = q.ranked[0];
    const topTool = top ? result.byId.get(top) : undefined;
    if (top && topTool)
      lines.push(`    ranked 1st ${top}; words shared with the query: ${shared(q.query, topTool) || 'none'}`);
  }
  lines.push('', `Ranked ids per query (top ${limit}; * = relevant)`);
  result.evaluation.queries.forEach((q, i) => {
    const relevant = new Set(q.relevant);
    lines.push(`  "${q.query}"`);
    result.ranked[i]!.forEach((id, rank) =>
      lines.push(`    ${String(rank + 1).padStart(2)}. ${relevant.has(id) ? '*' : ' '} ${id}`),
    );
  });
  return `${lines.join('\n')}\n`;
}

/**
 * The query words a tool's text also contains (name, title, description,
 * parameter names), after a light suffix strip: why a tool did or did not
 * match. The ranking itself does more (stemming, synonyms, field weights).
 */
function shared(query: string, tool: ToolDescriptor): string {
  const text = `${tool.name.replace(/([a-z0-9])([A-Z])/g, '$1 $2')} ${tool.title ?? ''} ${tool.description} ${Object.keys(schemaProperties(tool)).join(' ')} ${tool.owner}`;
  const doc = new Set(words(text).map(stem));
  return [...new Set(words(query))]
    .filter((word) => word.length > 2 && !STOPWORDS.has(word) && doc.has(stem(word)))
    .join(', ');
}

function schemaProperties(tool: ToolDescriptor): Record<string, unknown> {
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  return properties && typeof properties === 'object' ? (properties as Record<string, unknown>) : {};
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function stem(word: string): string {
  return word.replace(/(ies|es|s|ing|ed)$/u, '') || word;
}

const STOPWORDS = new Set(
  'the and for with from this that these those into are was were you your all can could what which how our any have has want need please some there their them then than'.split(
    ' ',
  ),
);

export interface LoadedQueries {
  readonly scored: readonly EvalQuery[];
  readonly dropped: number;
}

function readQueries(file: string): LoadedQueries {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CliInputError(`cannot read the query file ${file}: ${errorMessage(error)}`, { cause: error });
  }
  const list = Array.isArray(parsed) ? parsed : undefined;
  if (!list) throw new CliInputError(`${file} must be a JSON list of { query, relevant: [ids] }`);
  const queries = list.map((entry: unknown, i): EvalQuery => {
    const q = entry as { query?: unknown; relevant?: unknown } | null;
    if (!q || typeof q.query !== 'string' || !q.query.trim())
      throw new CliInputError(`${file}: entry ${i} needs a non-empty "query" string`);
    if (!Array.isArray(q.relevant) || !q.relevant.every((id) => typeof id === 'string')) {
      throw new CliInputError(`${file}: entry ${i} needs "relevant", a list of tool id strings`);
    }
    return { id: String(i), query: q.query, relevant: q.relevant as string[] };
  });
  const scored = queries.filter((q) => q.relevant.length > 0);
  if (scored.length === 0) throw new CliInputError(`${file}: no query has a relevant tool id`);
  return { scored, dropped: queries.length - scored.length };
}

/** `--train` / `--scope` (only with `--from-logs`): how the learned signal is trained on the log. */
function learningFlags(flags: EvalFlags) {
  if (flags.fromLogs === undefined) {
    if (flags.train !== undefined || flags.scope !== undefined)
      throw new CliInputError('--train and --scope go with --from-logs');
    return undefined;
  }
  const train = flags.train ?? 'earlier';
  if (train !== 'earlier' && train !== 'others') throw new CliInputError('--train must be "earlier" or "others"');
  const scope = flags.scope ?? 'agent';
  if (scope !== 'agent' && scope !== 'deployment') throw new CliInputError('--scope must be "agent" or "deployment"');
  return defaultLearningOptions(train as TrainOn, scope);
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > EVAL_INDEX_OPTIONS.maxSearchLimit) {
    throw new CliInputError(`--limit must be an integer from 1 to ${EVAL_INDEX_OPTIONS.maxSearchLimit}`);
  }
  return limit;
}

function warnUnknown(io: CliIO, queries: readonly EvalQuery[], known: ReadonlySet<string>): void {
  const unknown = [...new Set(queries.flatMap((q) => q.relevant.filter((id) => !known.has(id))))];
  if (unknown.length === 0) return;
  io.stderr.write(
    `warning: ${unknown.length} relevant id(s) not in the catalog (they count as misses): ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', …' : ''}\n`,
  );
}
