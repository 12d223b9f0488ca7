/**
 * Which `toolSearch` setting applies to a run (the agent's, the provider's, or `tools.toolSearch`), as the front ends
 * report and use it. A mode fixed by the front end (the CLI's `--mode`) wins over all of them.
 */
import { resolveToolSearchFor, type ResolvedToolSearchFor, type ToolSearchConfig } from '@tool-search/config';
import type { RunRequest } from '@tool-search/kernel';

export interface AppliedToolSearch {
  readonly mode: string;
  /** Config paths that decided it, base first; `['--mode']` when the flag did. */
  readonly sources: readonly string[];
  readonly resolved: ResolvedToolSearchFor;
}

export function appliedToolSearch(
  config: ToolSearchConfig,
  request: Pick<RunRequest, 'agentId' | 'provider' | 'model'>,
  flagMode?: string,
): AppliedToolSearch {
  const resolved = resolveToolSearchFor(config, request);
  if (flagMode !== undefined) return { mode: flagMode, sources: ['--mode'], resolved };
  return { mode: resolved.mode, sources: resolved.sources.length ? resolved.sources : ['(default)'], resolved };
}

/** The run request fields that carry the setting into a run: `searchLimits` and the operator's `searchDescription` (the modes read both). */
export function runSettingOf(applied: AppliedToolSearch): {
  searchLimits: { searchDefaultLimit: number; maxSearchLimit: number };
  searchDescription?: string;
} {
  const description = applied.resolved.description;
  return {
    searchLimits: searchLimitsOf(applied),
    ...(description !== undefined ? { searchDescription: description } : {}),
  };
}

/** The search limits of the setting (the modes read `searchLimits`). */
export function searchLimitsOf(applied: AppliedToolSearch): { searchDefaultLimit: number; maxSearchLimit: number } {
  return { searchDefaultLimit: applied.resolved.searchDefaultLimit, maxSearchLimit: applied.resolved.maxSearchLimit };
}
