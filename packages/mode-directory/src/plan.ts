/**
 * Decides, from the run's effective catalog, what directory mode shows:
 * which tools stay visible with their schemas (client tools and the
 * configured `visible` list), which go into the directory under which label,
 * and which hidden names a model may call directly (exact and unique only).
 * Only `ctx.searchable` and `ctx.run.catalog` are read, so a tool policy
 * dropped can never be shown, resolved or called from here.
 */
import type { ExposedTool, MaterializeContext, ToolDescriptor } from '@tool-search/kernel';
import { createProviderNameMap, PROVIDER_NAME_PATTERN } from '@tool-search/provider-formats';
import { indexForRun } from '@tool-search/search';
import type { DirectoryEntry } from './directory.js';
import './types.js';

export interface DirectoryPlan {
  /** Visible catalog tools with their full schemas, sorted by owner, name, id. */
  readonly visible: readonly ExposedTool[];
  /** Ids of the tools shown for this turn (ranked from its last user message), best first. */
  readonly turnTools: readonly string[];
  readonly entries: readonly DirectoryEntry[];
  /** Hidden tools that cannot be listed (ambiguous name and an id that is not plain text). */
  readonly unlisted: number;
  /** Exact unique hidden name (or its provider-safe alias) → tool id. */
  readonly resolveHidden: (name: string) => string | undefined;
}

/** Ids shown in the prompt must be copyable as they are. */
const PLAIN_ID = /^[A-Za-z0-9_.:/@+-]{1,200}$/;

export function planDirectory(
  ctx: MaterializeContext,
  visibleOption: readonly string[],
  controlNames: readonly string[],
  turnToolCount = 0,
): DirectoryPlan {
  const searchable = [...ctx.searchable].sort(byOwnerNameId);
  const shown = pickVisible(ctx, searchable, visibleOption);
  const turnTools = pickTurnTools(ctx, searchable, shown, turnToolCount);
  for (const id of turnTools) shown.add(id);
  const taken = new Set([...controlNames, ...ctx.directOnly.map((tool) => tool.name)]);
  const visible: ExposedTool[] = [];
  for (const tool of searchable.filter((t) => shown.has(t.id))) {
    // A clash would hide a direct-only tool or a control tool: expose the later one under its id.
    const name = taken.has(tool.name) ? tool.id : tool.name;
    taken.add(name);
    visible.push({ name, description: tool.description, inputSchema: tool.inputSchema, toolId: tool.id });
  }

  // Provider forms of exposed names route to the exposed tool first; never reuse them for hidden ones.
  const exposedNames = [...taken];
  const providerForms = createProviderNameMap(exposedNames);
  for (const name of exposedNames) taken.add(providerForms.toProvider(name));

  const nameCount = new Map<string, number>();
  for (const tool of ctx.run.catalog) nameCount.set(tool.name, (nameCount.get(tool.name) ?? 0) + 1);
  const hidden = searchable.filter((tool) => !shown.has(tool.id));
  const callable = hidden.filter((tool) => nameCount.get(tool.name) === 1 && !taken.has(tool.name));
  const aliases = createProviderNameMap([...taken, ...ctx.run.catalog.map((tool) => tool.name)]);
  const byName = new Map<string, string>();
  const labels = new Map<string, string>();
  for (const tool of callable) {
    const label = PROVIDER_NAME_PATTERN.test(tool.name) ? tool.name : aliases.toProvider(tool.name);
    byName.set(tool.name, tool.id);
    byName.set(label, tool.id);
    labels.set(tool.id, label);
  }

  const entries: DirectoryEntry[] = [];
  let unlisted = 0;
  for (const tool of hidden) {
    const label = labels.get(tool.id) ?? (PLAIN_ID.test(tool.id) ? tool.id : undefined);
    if (label === undefined) unlisted++;
    else entries.push({ id: tool.id, owner: tool.owner, label, description: tool.description });
  }
  return { visible, turnTools, entries, unlisted, resolveHidden: (name) => byName.get(name) };
}

/**
 * Up to `count` searchable tools not already shown, ranked against the turn's last user message with the run's own
 * index (the effective catalog: policy-dropped tools are not in it, and only `searchable` ids are kept). The lexical
 * ranking is deterministic, so a turn's requests (same last user message, same catalog) get the same set.
 */
function pickTurnTools(
  ctx: MaterializeContext,
  searchable: readonly ToolDescriptor[],
  shown: ReadonlySet<string>,
  count: number,
): string[] {
  const text = ctx.run.info.request.turnText?.trim();
  if (!count || !text) return [];
  const ids = new Set(searchable.map((tool) => tool.id));
  const hits = indexForRun(ctx.run, { maxSearchLimit: 50, searchDefaultLimit: 50 }).search(text, {
    limit: Math.min(50, count + shown.size + 10),
  }).hits;
  const picked: string[] = [];
  for (const hit of hits) {
    if (picked.length >= count) break;
    if (ids.has(hit.id) && !shown.has(hit.id)) picked.push(hit.id);
  }
  return picked;
}

/** Client tools, then `visible` entries by id, or by name (the tool the run resolves that name to). */
function pickVisible(
  ctx: MaterializeContext,
  searchable: readonly ToolDescriptor[],
  visibleOption: readonly string[],
): Set<string> {
  const searchableIds = new Set(searchable.map((tool) => tool.id));
  const shown = new Set(searchable.filter((tool) => tool.source === 'client').map((tool) => tool.id));
  for (const wanted of visibleOption) {
    const id = searchableIds.has(wanted) ? wanted : ctx.run.tool(wanted)?.id;
    if (id !== undefined && searchableIds.has(id)) shown.add(id);
  }
  return shown;
}

function byOwnerNameId(a: ToolDescriptor, b: ToolDescriptor): number {
  return compare(a.owner, b.owner) || compare(a.name, b.name) || compare(a.id, b.id);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
