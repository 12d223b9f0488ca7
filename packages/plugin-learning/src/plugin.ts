/**
 * `learningPlugin(options)`: learning from what the deployment calls. It pairs
 * every tool call with the run's latest search (`runEvent` search events,
 * `afterToolCall`), keeps the query's words and the tool in the state store
 * (per agent by default), and taps each run's search `rerank` hook (owned by
 * `@tool-search/search`) to lift tools that a query's words repeatedly led to.
 * Policy-safe by construction: it re-orders the ids the search hands it and may
 * add only tools of `ctx.tools` (what the run may see); the search drops
 * anything else again. A store that does not answer leaves the ranking as it
 * was, with one `LEARNING_UNAVAILABLE` diagnostic per outage.
 */
import type { KernelPlugin, RunInfo, ToolDescriptor } from '@tool-search/kernel';
import { getSearchHooks, queryTerms, type Ranking, type RerankContext } from '@tool-search/search';
import { MemoryStateStore } from '@tool-search/state';
import { LearningErrors } from './errors.js';
import { learnedOrder } from './model.js';
import { DEFAULTS, parseLearningOptions, PLUGIN_NAME, type LearningOptions, type LearningScope } from './options.js';
import { SearchCallPairer, type SearchedQuery } from './pairing.js';
import { LEARNED_RANKER_SUFFIX, LearningStore, scopeKey } from './store.js';

export interface LearningPlugin extends KernelPlugin {
  /** The scope key a run learns into and ranks from (tests, `inspect`). */
  scopeOf(run: Pick<RunInfo, 'request'>): string;
}

const DAY_MS = 86_400_000;
/** After the hybrid (embeddings) tap at the default stage: the learned lift applies to the final candidates. */
const RERANK_STAGE = 100;

export function learningPlugin(options: LearningOptions = {}): LearningPlugin {
  const parsed = parseLearningOptions(options);
  const scope: LearningScope = parsed.scope ?? DEFAULTS.scope;
  const weight = parsed.weight ?? DEFAULTS.weight;
  const now = parsed.now ?? Date.now;
  const scopeOf = (run: Pick<RunInfo, 'request'>): string => scopeKey(scope, run.request.agentId);
  return {
    name: PLUGIN_NAME,
    scopeOf,
    apply({ hooks, logger }) {
      if (parsed.enabled === false) return;
      const store = new LearningStore(
        parsed.state ?? new MemoryStateStore(),
        {
          maxEntries: parsed.maxEntries ?? DEFAULTS.maxEntries,
          halfLifeMs: (parsed.halfLifeDays ?? DEFAULTS.halfLifeDays) * DAY_MS,
          minCalls: parsed.minCalls ?? DEFAULTS.minCalls,
          refreshMs: parsed.refreshMs ?? DEFAULTS.refreshMs,
          now,
        },
        logger,
      );
      const pairer = new SearchCallPairer();
      // The ids a run may see, per searchable catalog array (the search hands the same array to every query).
      const allowed = new WeakMap<readonly ToolDescriptor[], ReadonlySet<string>>();
      const allowedIn = (tools: readonly ToolDescriptor[]): ReadonlySet<string> => {
        let ids = allowed.get(tools);
        if (!ids) allowed.set(tools, (ids = new Set(tools.map((tool) => tool.id))));
        return ids;
      };

      hooks.runStart.tap((run) => {
        const key = scopeOf(run);
        // The scope's first read starts now, not on the first search.
        store.prefetch(key);
        if (weight <= 0) return;
        getSearchHooks(run).rerank.tapPromise({ name: PLUGIN_NAME, stage: RERANK_STAGE }, (ranking, ctx) =>
          rerank(key, ranking, ctx),
        );
      });

      hooks.runEvent.tap((event, run) => {
        if (event.type !== 'search') return;
        const results: readonly SearchedQuery[] =
          event.results ?? (event.queries.length === 1 ? [{ query: event.queries[0]!, hits: event.hits }] : []);
        pairer.search(run.runId, results);
      });

      hooks.afterToolCall.tap((call, outcome, ctx) => {
        // Blocked and failed calls teach nothing; always-visible (direct-only) tools are not found by search.
        if (outcome.status !== 'ok' || call.tool.catalogMode !== 'catalog') return;
        const paired = pairer.call(ctx.run.runId, call.tool.id);
        if (!paired) return;
        const terms = queryTerms(paired.query);
        if (terms.length === 0) return;
        // Recorded off the call's path: the result goes back to the model while the store writes.
        void store.record(scopeOf(ctx.run), { t: now(), terms, tool: call.tool.id, rank: paired.rank });
      });

      hooks.runEnd.tap((run) => pairer.endRun(run.runId));

      async function rerank(key: string, ranking: Ranking, ctx: RerankContext): Promise<Ranking> {
        const terms = queryTerms(ctx.query);
        if (terms.length === 0) return ranking;
        const answer = await store.model(key);
        if ('unavailable' in answer) {
          if (answer.report) {
            ctx.diagnostic({
              code: LearningErrors.LEARNING_UNAVAILABLE,
              level: 'warning',
              plugin: PLUGIN_NAME,
              message: `learned ranking unavailable, searches rank without it until the store answers: ${answer.unavailable}`,
            });
          }
          return ranking;
        }
        const lifts = answer.model.score(terms);
        if (lifts.size === 0) return ranking;
        const ids = allowedIn(ctx.tools);
        const ordered = learnedOrder(ranking.ids, lifts, (id) => ids.has(id), { weight });
        if (ordered === ranking.ids) return ranking;
        return {
          ids: ordered,
          ranker: {
            id: `${ranking.ranker.id}${LEARNED_RANKER_SUFFIX}`,
            version: `${ranking.ranker.version}${LEARNED_RANKER_SUFFIX}.1`,
          },
        };
      }
    },
  };
}
