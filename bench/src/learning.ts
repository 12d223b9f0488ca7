/**
 * Learning from the deployment, measured by simulation (issue 33): replay
 * queries of one part of a query set as traffic (each a call of one of the
 * query's relevant tools, the tool a user ended up calling), then evaluate on
 * the *other* queries of the set with the learned signal on, against the same
 * ranking without it. The model and the fusion are `@tool-search/plugin-learning`'s
 * own functions (the plugin runs the same code per search). Eval queries are split
 * into "related" (one of their relevant tools was called in the traffic) and
 * "unrelated" (none was): the signal must not make the unrelated ones worse.
 */
import { buildModel, LEARNING_DEFAULTS, learnedOrder, type LearningEvent } from '@tool-search/plugin-learning';
import {
  createToolIndex,
  evaluate,
  loadSnapshot,
  queryTerms,
  splitDev,
  type EvalQuery,
  type Metrics,
  type SnapshotName,
} from '@tool-search/search';
import { hasData } from './catalogs.js';
import { EVAL_INDEX_OPTIONS } from './quality.js';

export interface LearningSettingsUnderTest {
  readonly weight: number;
  readonly minCalls: number;
  readonly rankK?: number;
  readonly halfLifeDays: number;
}

export interface LearningPoint {
  /** Calls replayed before the evaluation. */
  readonly calls: number;
  readonly all: Metrics;
  readonly related: Metrics;
  readonly unrelated: Metrics;
  /** The replayed queries themselves (in-sample: users asking again what they asked before). */
  readonly seen: Metrics;
  /** The same parts ranked without the signal (the lexical ranking alone). */
  readonly baseline: {
    readonly all: Metrics;
    readonly related: Metrics;
    readonly unrelated: Metrics;
    readonly seen: Metrics;
  };
  /** Eval queries in each part (mean over seeds, rounded). */
  readonly relatedQueries: number;
  readonly unrelatedQueries: number;
}

export interface LearningRow {
  readonly dataset: string;
  readonly trafficQueries: number;
  readonly evalQueries: number;
  readonly points: readonly LearningPoint[];
}

export const LEARNING_CURVE = [0, 50, 200, 1000] as const;
export const LEARNING_SEEDS = 3;
const DAY_MS = 86_400_000;
/** The replayed calls are spread over the last `SPAN_DAYS` days (so decay takes part). */
const SPAN_DAYS = 7;

const SETS: readonly { name: SnapshotName; file: string }[] = [
  { name: 'mcp-catalog', file: 'mcp-catalog-queries.json' },
  { name: 'livemcpbench', file: 'livemcpbench-retrieval.json' },
  { name: 'toolbench', file: 'toolbench-stable-retrieval.json' },
];

export const DEFAULT_SETTINGS: LearningSettingsUnderTest = {
  weight: LEARNING_DEFAULTS.weight,
  minCalls: LEARNING_DEFAULTS.minCalls,
  halfLifeDays: LEARNING_DEFAULTS.halfLifeDays,
};

/**
 * Traffic and evaluation parts: the dev set's tuning part is the traffic for its held-out fifth (and, halved, for
 * the other half of the tuning part); a held-out set is halved by query number (even: traffic, odd: evaluated).
 */
export function learningSplits(
  name: SnapshotName,
  queries: readonly EvalQuery[],
): { label: string; traffic: readonly EvalQuery[]; evaluated: readonly EvalQuery[] }[] {
  if (name === 'mcp-catalog') {
    const { tune, heldOut } = splitDev(queries);
    return [
      {
        label: 'mcp-catalog: tuning half → other tuning half',
        traffic: tune.filter((_, i) => i % 2 === 0),
        evaluated: tune.filter((_, i) => i % 2 === 1),
      },
      { label: 'mcp-catalog: tuning part → held-out fifth', traffic: tune, evaluated: heldOut },
    ];
  }
  return [
    { label: name, traffic: queries.filter((_, i) => i % 2 === 0), evaluated: queries.filter((_, i) => i % 2 === 1) },
  ];
}

export function measureLearning(
  dataDir: string,
  options: {
    only?: readonly SnapshotName[];
    settings?: LearningSettingsUnderTest;
    seeds?: number;
    curve?: readonly number[];
  } = {},
): LearningRow[] {
  const rows: LearningRow[] = [];
  for (const set of SETS) {
    if ((options.only && !options.only.includes(set.name)) || !hasData(dataDir, set.file)) continue;
    const snapshot = loadSnapshot(dataDir, set.name);
    const index = createToolIndex(snapshot.descriptors, EVAL_INDEX_OPTIONS);
    const lexical = new Map<string, readonly string[]>();
    const ranked = (query: string): readonly string[] => {
      let ids = lexical.get(query);
      if (!ids) lexical.set(query, (ids = index.search(query, { limit: 50 }).hits.map((hit) => hit.id)));
      return ids;
    };
    for (const split of learningSplits(set.name, snapshot.queries)) {
      rows.push(
        simulate(
          split.label,
          split.traffic,
          split.evaluated,
          ranked,
          options.settings ?? DEFAULT_SETTINGS,
          options.seeds ?? LEARNING_SEEDS,
          options.curve ?? LEARNING_CURVE,
        ),
      );
    }
  }
  return rows;
}

export function simulate(
  label: string,
  traffic: readonly EvalQuery[],
  evaluated: readonly EvalQuery[],
  ranked: (query: string) => readonly string[],
  settings: LearningSettingsUnderTest,
  seeds: number,
  curve: readonly number[],
): LearningRow {
  const now = Date.UTC(2026, 11, 1);
  const termsOf = new Map(traffic.concat(evaluated).map((q) => [q.query, queryTerms(q.query)]));
  const perPoint = curve.map(() => ({
    all: [] as Metrics[],
    related: [] as Metrics[],
    unrelated: [] as Metrics[],
    baseAll: [] as Metrics[],
    baseRelated: [] as Metrics[],
    baseUnrelated: [] as Metrics[],
    seen: [] as Metrics[],
    baseSeen: [] as Metrics[],
    relatedCount: 0,
    unrelatedCount: 0,
  }));
  const lexical = {
    search: (query: string, opts?: { limit?: number }) => ({
      hits: ranked(query)
        .slice(0, opts?.limit ?? 10)
        .map((id) => ({ id })),
    }),
  };
  for (let seed = 1; seed <= seeds; seed++) {
    const random = mulberry32(seed);
    const events: (LearningEvent & { readonly query: string })[] = [];
    const max = Math.max(...curve);
    for (let i = 0; i < max; i++) {
      const q = traffic[Math.floor(random() * traffic.length)]!;
      const tool = q.relevant[Math.floor(random() * q.relevant.length)]!;
      events.push({
        t: now - Math.floor(random() * SPAN_DAYS * DAY_MS),
        terms: termsOf.get(q.query)!,
        tool,
        rank: null,
        query: q.query,
      });
    }
    curve.forEach((calls, p) => {
      const replayed = events.slice(0, calls);
      const model = buildModel(replayed, {
        now,
        halfLifeMs: settings.halfLifeDays * DAY_MS,
        minCalls: settings.minCalls,
      });
      const called = new Set(replayed.map((event) => event.tool));
      const retriever = {
        search: (query: string, opts?: { limit?: number }) => {
          const ids = learnedOrder(ranked(query), model.score(termsOf.get(query) ?? queryTerms(query)), () => true, {
            weight: settings.weight,
            ...(settings.rankK !== undefined ? { rankK: settings.rankK } : {}),
          });
          return { hits: ids.slice(0, opts?.limit ?? 10).map((id) => ({ id })) };
        },
      };
      const related = evaluated.filter((q) => q.relevant.some((id) => called.has(id)));
      const unrelated = evaluated.filter((q) => !q.relevant.some((id) => called.has(id)));
      const point = perPoint[p]!;
      point.all.push(evaluate(retriever, evaluated).metrics);
      point.related.push(evaluate(retriever, related).metrics);
      point.unrelated.push(evaluate(retriever, unrelated).metrics);
      point.baseAll.push(evaluate(lexical, evaluated).metrics);
      point.baseRelated.push(evaluate(lexical, related).metrics);
      point.baseUnrelated.push(evaluate(lexical, unrelated).metrics);
      const replayedQueries = new Set(replayed.map((event) => event.query));
      const seen = traffic.filter((q) => replayedQueries.has(q.query));
      point.seen.push(evaluate(retriever, seen).metrics);
      point.baseSeen.push(evaluate(lexical, seen).metrics);
      point.relatedCount += related.length;
      point.unrelatedCount += unrelated.length;
    });
  }
  return {
    dataset: label,
    trafficQueries: traffic.length,
    evalQueries: evaluated.length,
    points: curve.map((calls, p) => {
      const point = perPoint[p]!;
      const baseline = {
        all: mean(point.baseAll),
        related: mean(point.baseRelated),
        unrelated: mean(point.baseUnrelated),
        seen: mean(point.baseSeen),
      };
      return {
        calls,
        all: mean(point.all),
        related: mean(point.related),
        unrelated: mean(point.unrelated),
        seen: mean(point.seen),
        baseline,
        relatedQueries: Math.round(point.relatedCount / seeds),
        unrelatedQueries: Math.round(point.unrelatedCount / seeds),
      };
    }),
  };
}

function mean(list: readonly Metrics[]): Metrics {
  const keys = ['recallAt1', 'recallAt5', 'recallAt10', 'hitAt1', 'hitAt5', 'mrr'] as const;
  return Object.fromEntries(
    keys.map((key) => [
      key,
      Math.round((list.reduce((sum, m) => sum + m[key], 0) / Math.max(list.length, 1)) * 1000) / 1000,
    ]),
  ) as unknown as Metrics;
}

/** A small seeded PRNG (Mulberry32): the same replay on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const LEARNING_HEADING = '### Learning from the deployment (replayed calls)';

/** The BENCHMARKS.md subsection (after hybrid ranking, in section 2). */
export function learningSection(
  rows: readonly LearningRow[],
  settings: LearningSettingsUnderTest = DEFAULT_SETTINGS,
): string[] {
  if (rows.length === 0) return [];
  const pair = (without: Metrics, withSignal: Metrics): string =>
    `${without.hitAt5.toFixed(3)} / ${without.mrr.toFixed(3)} → ${bold(withSignal.hitAt5, without.hitAt5)} / ${bold(withSignal.mrr, without.mrr)}`;
  return [
    LEARNING_HEADING,
    '',
    "`@tool-search/plugin-learning` measured by simulation (`bench/src/learning.ts`, the plugin's own model and fusion): the calls",
    'of one part of a query set are replayed as traffic (each call = a random query of that part and one of its relevant tools, the tool',
    `a user ended up calling; spread over ${SPAN_DAYS} days), then *other* queries are ranked with the learned signal and without it`,
    `(the same lexical ranking). Defaults: weight ${settings.weight}, minCalls ${settings.minCalls}, half-life ${settings.halfLifeDays} days; mean of ${LEARNING_SEEDS} seeds.`,
    '"related" = evaluated queries one of whose relevant tools was called in the traffic, "unrelated" = none was (they must not get',
    'worse); "again" = the replayed queries asked again (in-sample, for scale only: not held out). Hit@5 / MRR, without → with.',
    '',
    '| traffic → evaluated | calls | all evaluated | related (n) | unrelated (n) | again (in-sample) |',
    '|---|---|---|---|---|---|',
    ...rows.flatMap((row) =>
      row.points.map(
        (p) =>
          `| ${row.dataset} (${row.trafficQueries} → ${row.evalQueries}) | ${p.calls} | ${pair(p.baseline.all, p.all)} | ${p.relatedQueries ? `${pair(p.baseline.related, p.related)} (${p.relatedQueries})` : '— (0)'} | ${pair(p.baseline.unrelated, p.unrelated)} (${p.unrelatedQueries}) | ${p.calls ? pair(p.baseline.seen, p.seen) : '—'} |`,
      ),
    ),
    '',
  ];
}

function bold(value: number, before: number): string {
  const text = value.toFixed(3);
  return value > before + 0.0005 ? `**${text}**` : value < before - 0.0005 ? `_${text}_` : text;
}
