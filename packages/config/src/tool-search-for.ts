/**
 * The `toolSearch` setting for one run: `tools.toolSearch`, overridden by the
 * matching `tools.byProvider[key].toolSearch` (`provider/model` before
 * `provider`), then the agent's `agents.list[].tools.toolSearch` and its own
 * `byProvider` entry. `true`/`false` switch tool search on or off; an object
 * is merged over what came before (and switches it on unless it says
 * `enabled: false`). `sources` names every setting that applied, in order.
 */
import { providerCandidates } from '@tool-search/provider-formats';
import { resolveToolSearch } from './resolve.js';
import type {
  ProviderToolPolicy,
  ResolvedToolSearch,
  ToolSearchConfig,
  ToolSearchOptions,
  ToolSearchSetting,
} from './types.js';

export interface ToolSearchParty {
  readonly agentId?: string;
  readonly provider?: string;
  readonly model?: string;
}

export type ResolvedToolSearchFor = ResolvedToolSearch & {
  /** Config paths of the settings that applied, base first (`[]` when none is set). */
  readonly sources: readonly string[];
};

type WithToolSearch = ProviderToolPolicy & { toolSearch?: ToolSearchSetting };

export function resolveToolSearchFor(config: ToolSearchConfig, party: ToolSearchParty = {}): ResolvedToolSearchFor {
  const layers: [string, ToolSearchSetting | undefined][] = [['tools.toolSearch', config.tools?.toolSearch]];
  const candidates = providerCandidates(party);
  const providerLayer = (map: Record<string, WithToolSearch> | undefined, prefix: string) => {
    const key = matchKey(map, candidates);
    if (key !== undefined) layers.push([`${prefix}.byProvider[${key}].toolSearch`, map![key]!.toolSearch]);
  };
  providerLayer(config.tools?.byProvider as Record<string, WithToolSearch> | undefined, 'tools');
  const wanted = party.agentId?.toLowerCase();
  const index =
    wanted === undefined ? -1 : (config.agents?.list ?? []).findIndex((agent) => agent.id.toLowerCase() === wanted);
  const agentTools =
    index >= 0
      ? (config.agents!.list![index]!.tools as
          | (WithToolSearch & { byProvider?: Record<string, WithToolSearch> })
          | undefined)
      : undefined;
  if (agentTools) {
    layers.push([`agents.list[${index}].tools.toolSearch`, agentTools.toolSearch]);
    providerLayer(agentTools.byProvider, `agents.list[${index}].tools`);
  }
  let merged: ToolSearchSetting | undefined;
  const sources: string[] = [];
  for (const [path, setting] of layers) {
    if (setting === undefined) continue;
    sources.push(path);
    merged = mergeSetting(merged, setting);
  }
  return { ...resolveToolSearch(merged), sources };
}

function mergeSetting(base: ToolSearchSetting | undefined, next: ToolSearchSetting): ToolSearchSetting {
  if (typeof next === 'boolean') return typeof base === 'object' ? { ...base, enabled: next } : next;
  const before: ToolSearchOptions = typeof base === 'object' ? base : {};
  return { ...before, ...next, enabled: next.enabled ?? true };
}

function matchKey(map: Record<string, unknown> | undefined, candidates: readonly string[]): string | undefined {
  if (!map || typeof map !== 'object') return undefined;
  for (const candidate of candidates) {
    const key = Object.keys(map).find((k) => k.trim().toLowerCase() === candidate);
    if (key !== undefined) return key;
  }
  return undefined;
}
