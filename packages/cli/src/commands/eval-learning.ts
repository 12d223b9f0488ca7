/**
 * What the learned signal (`@tool-search/plugin-learning`) would have done on a
 * real log: for each logged search a call followed, the called tool's rank
 * without it (the catalog's lexical ranking now) and with it, the model trained
 * on the log's other calls in the same scope: those before it (`earlier`, the
 * default: what a deployment would have known then) or all others
 * (`others`, leave-one-out). The model and the fusion are the plugin's own.
 */
import {
  buildModel,
  LEARNING_DEFAULTS,
  learnedOrder,
  type LearningEvent,
  type LearningScope,
} from '@tool-search/preset';
import { queryTerms } from '@tool-search/search';
import type { LoggedCall } from './eval-logs.js';

export type TrainOn = 'earlier' | 'others';

export interface LearningEffectOptions {
  readonly train: TrainOn;
  readonly scope: LearningScope;
  readonly halfLifeDays: number;
  readonly minCalls: number;
  readonly weight: number;
}

export interface RankMetrics {
  readonly hitAt1: number;
  readonly hitAt5: number;
  /** MRR@10, as the eval metrics. */
  readonly mrr: number;
}

export interface LearningEffect {
  readonly options: LearningEffectOptions;
  readonly summary: {
    readonly calls: number;
    readonly before: RankMetrics;
    readonly after: RankMetrics;
    readonly improved: number;
    readonly worsened: number;
  };
  readonly calls: readonly {
    readonly query: string;
    readonly tool: string;
    readonly agentId?: string;
    readonly loggedRank: number | null;
    readonly before: number | null;
    readonly after: number | null;
  }[];
}

const DAY_MS = 86_400_000;
/** Calls scored at most (each needs its own model in `earlier` mode); later ones are left out and the output says so. */
export const MAX_SCORED_CALLS = 5000;

export function defaultLearningOptions(
  train: TrainOn,
  scope: LearningScope = LEARNING_DEFAULTS.scope,
): LearningEffectOptions {
  return {
    train,
    scope,
    halfLifeDays: LEARNING_DEFAULTS.halfLifeDays,
    minCalls: LEARNING_DEFAULTS.minCalls,
    weight: LEARNING_DEFAULTS.weight,
  };
}

/**
 * `ranked(query)`: the catalog's lexical ranking (ids as the log writes them, best first); `allowed(id)`: the id is
 * in the catalog. Calls must be in time order.
 */
export function learningEffect(
  calls: readonly LoggedCall[],
  ranked: (query: string) => readonly string[],
  allowed: (id: string) => boolean,
  options: LearningEffectOptions,
): LearningEffect {
  const scored = calls.slice(0, MAX_SCORED_CALLS);
  const events: LearningEvent[] = scored.map((call) => ({
    t: call.t,
    terms: queryTerms(call.query),
    tool: call.tool,
    rank: call.loggedRank,
  }));
  const scopeOf = (call: LoggedCall): string => (options.scope === 'deployment' ? '' : (call.agentId ?? ''));
  const halfLifeMs = options.halfLifeDays * DAY_MS;
  // Leave-one-out: one model per scope (decayed to the last call), each call's own event subtracted.
  const whole = new Map<string, ReturnType<typeof buildModel>>();
  if (options.train === 'others') {
    const last = scored.at(-1)?.t ?? 0;
    for (const key of new Set(scored.map(scopeOf)))
      whole.set(
        key,
        buildModel(
          events.filter((_, j) => scopeOf(scored[j]!) === key),
          { now: last, halfLifeMs, minCalls: options.minCalls },
        ),
      );
  }
  const rows = scored.map((call, i) => {
    const ids = ranked(call.query);
    const event = events[i]!;
    const model =
      options.train === 'others'
        ? whole.get(scopeOf(call))!
        : buildModel(
            events.filter((_, j) => j < i && scopeOf(scored[j]!) === scopeOf(call)),
            { now: call.t, halfLifeMs, minCalls: options.minCalls },
          );
    const lifts = model.score(event.terms, options.train === 'others' ? event : undefined);
    const after = learnedOrder(ids, lifts, allowed, { weight: options.weight });
    return {
      query: call.query,
      tool: call.tool,
      ...(call.agentId !== undefined ? { agentId: call.agentId } : {}),
      loggedRank: call.loggedRank,
      before: rankOf(ids, call.tool),
      after: rankOf(after, call.tool),
    };
  });
  const better = (a: number | null, b: number | null): boolean => b !== null && (a === null || b < a);
  return {
    options,
    summary: {
      calls: rows.length,
      before: metrics(rows.map((row) => row.before)),
      after: metrics(rows.map((row) => row.after)),
      improved: rows.filter((row) => better(row.before, row.after)).length,
      worsened: rows.filter((row) => better(row.after, row.before)).length,
    },
    calls: rows,
  };
}

export function renderLearningEffect(effect: LearningEffect, total: number): string {
  const { options: o, summary: s } = effect;
  const pair = (key: keyof RankMetrics): string => `${s.before[key].toFixed(3)} → ${s.after[key].toFixed(3)}`;
  const where = (rank: number | null): string => (rank === null ? 'not ranked' : `rank ${rank}`);
  const lines = [
    '',
    `Learned signal (scope ${o.scope}, half-life ${o.halfLifeDays} d, minCalls ${o.minCalls}, weight ${o.weight}; trained on ${o.train === 'earlier' ? 'the earlier calls of the log' : 'every other call of the log (leave-one-out)'}):`,
    `  ${s.calls} logged calls after a search${total > s.calls ? ` (the first ${s.calls} of ${total})` : ''}: Hit@1 ${pair('hitAt1')}  Hit@5 ${pair('hitAt5')}  MRR ${pair('mrr')}; ${s.improved} ranked higher, ${s.worsened} lower`,
  ];
  const moved = effect.calls.filter((call) => call.before !== call.after);
  for (const call of moved.slice(0, 20))
    lines.push(`  "${call.query}" → ${call.tool}: ${where(call.before)} → ${where(call.after)}`);
  if (moved.length > 20) lines.push(`  … ${moved.length - 20} more`);
  return `${lines.join('\n')}\n`;
}

function rankOf(ids: readonly string[], id: string): number | null {
  const at = ids.indexOf(id);
  return at < 0 ? null : at + 1;
}

function metrics(ranks: readonly (number | null)[]): RankMetrics {
  const mean = (score: (rank: number | null) => number): number =>
    ranks.length === 0
      ? 0
      : Math.round((ranks.reduce<number>((sum, rank) => sum + score(rank), 0) / ranks.length) * 1000) / 1000;
  return {
    hitAt1: mean((rank) => (rank === 1 ? 1 : 0)),
    hitAt5: mean((rank) => (rank !== null && rank <= 5 ? 1 : 0)),
    mrr: mean((rank) => (rank !== null && rank <= 10 ? 1 / rank : 0)),
  };
}
