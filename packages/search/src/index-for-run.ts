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
import { createIndexCore, indexView, type IndexCore } from './tool-index.js';
import type { ToolIndex, ToolIndexOptions, UnavailableSource } from './types.js';

interface RunIndexes {
  readonly core: IndexCore;
  readonly visible: Uint8Array | undefined;
  readonly unavailable: () => readonly UnavailableSource[];
  readonly views: Map<string, ToolIndex>;
}

/** Cores kept for reuse across runs, most recent first: a few catalogs (say, per agent) stay warm. */
const MAX_SHARED_CORES = 4;
const shared: { readonly input: readonly ToolDescriptor[]; readonly core: IndexCore }[] = [];
const perRun = new WeakMap<readonly ToolDescriptor[], RunIndexes>();
let builds = 0;

/** The run surface the index reads; `listed` (every listed tool before policy) is on kernel runs. */
export type IndexedRun = Pick<RunApi, 'catalog'> & { readonly listed?: readonly ToolDescriptor[]; readonly diagnostics?: readonly Diagnostic[] };

export function indexForRun(run: IndexedRun, options: ToolIndexOptions = {}): ToolIndex {
  let entry = perRun.get(run.catalog);
  if (!entry) {
    entry = runIndexes(run);
    perRun.set(run.catalog, entry);
  }
  const key = JSON.stringify([options.searchDefaultLimit, options.maxSearchLimit, options.maxQueryLength, options.maxResponseBytes, options.maxBatchQueries]);
  let index = entry.views.get(key);
  if (!index) {
    index = indexView(entry.core, options, { visible: entry.visible, unavailable: entry.unavailable });
    entry.views.set(key, index);
  }
  return index;
}

/** How many cores `indexForRun` has built in this process (a reused core does not count): for tests and benchmarks. */
export function indexBuildCount(): number {
  return builds;
}

function runIndexes(run: IndexedRun): RunIndexes {
  const searchable = run.catalog.filter(isCatalogTool);
  const universe = Array.isArray(run.listed) ? run.listed.filter(isCatalogTool) : searchable;
  const at = shared.findIndex((candidate) => sameTools(candidate.input, universe));
  const found = at >= 0 ? shared.splice(at, 1)[0]! : { input: universe, core: createIndexCore(universe) };
  if (at < 0) builds++;
  shared.unshift(found);
  shared.length = Math.min(shared.length, MAX_SHARED_CORES);
  const { core } = found;
  let sources: UnavailableSource[] | undefined;
  return {
    core,
    visible: visibility(core, searchable),
    // Read on first use: listing diagnostics are final once the run exists.
    unavailable: () => (sources ??= unavailableSources(run.diagnostics ?? [])),
    views: new Map(),
  };
}

function isCatalogTool(tool: ToolDescriptor): boolean {
  return tool.catalogMode === 'catalog';
}

/** Same descriptor objects in the same order: an unchanged catalog (frozen descriptors are never edited in place). */
function sameTools(a: readonly ToolDescriptor[], b: readonly ToolDescriptor[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Which of the core's docs the run may see; `undefined` when it sees all of them. Policy keeps the listing
 * order, so one merge walk usually does; otherwise each visible tool is looked up.
 */
function visibility(core: IndexCore, searchable: readonly ToolDescriptor[]): Uint8Array | undefined {
  const { tools } = core;
  if (searchable.length === tools.length && sameTools(tools, searchable)) return undefined;
  const visible = new Uint8Array(tools.length);
  let j = 0;
  for (let doc = 0; doc < tools.length && j < searchable.length; doc++) {
    if (tools[doc] === searchable[j]) {
      visible[doc] = 1;
      j++;
    }
  }
  for (; j < searchable.length; j++) {
    const doc = core.docOf(searchable[j]!);
    if (doc >= 0) visible[doc] = 1;
  }
  return visible;
}
