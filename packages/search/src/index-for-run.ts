/**
 * One index per run catalog, and one built core per unchanged catalog across
 * runs. The kernel hands every run the same frozen descriptor objects while
 * the sources list the same tools, so a new run finds the core an earlier run
 * built over exactly those objects (compared by identity, in order) and only
 * marks which of them it may see: policy is a query-time filter over the
 * run's visible ids, and creating a run costs a pointer walk, not an index
 * build. The core indexes every listed catalog-mode tool (`run.listed` when
 * the run has it, else its catalog); hits, describe and suggest only ever
 * come from the visible ones. Several modes in one run share one view per
 * option set (a WeakMap keyed by the run's catalog array).
 */
import type { Diagnostic, RunApi, ToolDescriptor } from '@tool-search/kernel';
import { unavailableSources } from './miss-reasons.js';
import { usedSearchHooks } from './hooks.js';
import { createIndexCore, indexView, type IndexCore, type RerankScope, type ViewScope } from './tool-index.js';
import type { ToolIndex, ToolIndexOptions, UnavailableSource } from './types.js';

interface RunIndexes {
  readonly core: IndexCore;
  readonly scope: ViewScope;
  readonly views: Map<string, ToolIndex>;
}

/** A built core and what it was built from: the run's listed tools and, per listed position, the doc (or -1). */
interface SharedCore {
  readonly listed: readonly ToolDescriptor[];
  readonly core: IndexCore;
  readonly docAt: Int32Array;
}

/** Cores kept for reuse across runs, most recent first: a few catalogs (say, per agent) stay warm. */
const MAX_SHARED_CORES = 4;
const shared: SharedCore[] = [];
const perRun = new WeakMap<readonly ToolDescriptor[], RunIndexes>();
let builds = 0;

/** The run surface the index reads; `listed` (every listed tool before policy) is on kernel runs. */
export type IndexedRun = Pick<RunApi, 'catalog'> &
  Partial<Pick<RunApi, 'info' | 'emit'>> & {
    readonly listed?: readonly ToolDescriptor[];
    readonly diagnostics?: readonly Diagnostic[];
  };

export function indexForRun(run: IndexedRun, options: ToolIndexOptions = {}): ToolIndex {
  let entry = perRun.get(run.catalog);
  if (!entry) {
    entry = runIndexes(run);
    perRun.set(run.catalog, entry);
  }
  const key = JSON.stringify([
    options.searchDefaultLimit,
    options.maxSearchLimit,
    options.maxQueryLength,
    options.maxResponseBytes,
    options.maxBatchQueries,
  ]);
  let index = entry.views.get(key);
  if (!index) {
    index = indexView(entry.core, options, entry.scope);
    entry.views.set(key, index);
  }
  return index;
}

/**
 * `indexForRun`, and the core's build scheduled right away (`setImmediate`), off the request path: exposure modes
 * call it when they materialize a run, so the first search after a catalog change finds the index built instead
 * of building it (3 s at 100,000 tools). A search that comes first builds it itself, as before; a reused core is
 * already built.
 */
export function prepareIndex(run: IndexedRun, options: ToolIndexOptions = {}): ToolIndex {
  const index = indexForRun(run, options);
  const core = perRun.get(run.catalog)?.core;
  if (core && !core.built()) setImmediate(() => core.ranker());
  return index;
}

/** Whether the run's index is built (by `prepareIndex` or a search): for tests and benchmarks. */
export function isIndexBuilt(run: IndexedRun): boolean {
  return perRun.get(run.catalog)?.core.built() ?? false;
}

/** How many cores `indexForRun` has built in this process (a reused core does not count): for tests and benchmarks. */
export function indexBuildCount(): number {
  return builds;
}

/** Pointer walks only on the reuse path: no filtering, no property reads, nothing proportional to the catalog's text. */
function runIndexes(run: IndexedRun): RunIndexes {
  const listed = Array.isArray(run.listed) ? run.listed : run.catalog;
  const at = shared.findIndex((candidate) => sameTools(candidate.listed, listed));
  const found = at >= 0 ? shared.splice(at, 1)[0]! : buildShared(listed);
  shared.unshift(found);
  shared.length = Math.min(shared.length, MAX_SHARED_CORES);
  let sources: UnavailableSource[] | undefined;
  return {
    core: found.core,
    scope: {
      ...visibility(found, run.catalog),
      // Read on first use: listing diagnostics are final once the run exists.
      unavailable: () => (sources ??= unavailableSources(run.diagnostics ?? [])),
      rerank: () => rerankScope(run),
    },
    views: new Map(),
  };
}

function rerankScope(run: IndexedRun): RerankScope | undefined {
  const { info, emit } = run;
  const hooks = usedSearchHooks(info);
  if (!hooks || !info) return undefined;
  return {
    hooks,
    run: info,
    diagnostic: (diagnostic) => emit?.({ type: 'diagnostic', diagnostic: { ...diagnostic, hook: 'search:rerank' } }),
  };
}

function buildShared(listed: readonly ToolDescriptor[]): SharedCore {
  builds++;
  const core = createIndexCore(listed.filter((tool) => tool.catalogMode === 'catalog'));
  const docAt = new Int32Array(listed.length);
  for (let i = 0; i < listed.length; i++) docAt[i] = listed[i]!.catalogMode === 'catalog' ? core.docOf(listed[i]!) : -1;
  return { listed, core, docAt };
}

/** Same descriptor objects in the same order: an unchanged catalog (frozen descriptors are never edited in place). */
function sameTools(a: readonly ToolDescriptor[], b: readonly ToolDescriptor[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Which of the core's docs the run may see: all (no mask) when policy kept every listed tool. Policy keeps the
 * listing order, so one merge walk of the run's catalog against the listed tools marks them; a tool found out of
 * order is looked up instead.
 */
function visibility(
  shared: SharedCore,
  catalog: readonly ToolDescriptor[],
): Pick<ViewScope, 'visible' | 'visibleCount'> {
  const { listed, core, docAt } = shared;
  if (sameTools(listed, catalog)) return {};
  const visible = new Uint8Array(core.tools.length);
  let count = 0;
  const mark = (doc: number): void => {
    if (doc >= 0 && visible[doc] === 0) {
      visible[doc] = 1;
      count++;
    }
  };
  let i = 0;
  for (const tool of catalog) {
    const from = i;
    while (i < listed.length && listed[i] !== tool) i++;
    if (i < listed.length) mark(docAt[i++]!);
    else {
      i = from;
      if (tool.catalogMode === 'catalog') mark(core.docOf(tool));
    }
  }
  return { visible, visibleCount: count };
}
