/**
 * The resolved view: every section present, `tools.toolSearch` turned into
 * concrete numbers. Bad numbers never fail here: the schema accepts any
 * number and resolution falls back to the default or clamps into range.
 */
import type { ResolvedConfig, ResolvedToolSearch, ToolSearchConfig, ToolSearchSetting } from './types.js';

export const TOOL_SEARCH_DEFAULTS = Object.freeze({ codeTimeoutMs: 10_000, searchDefaultLimit: 8, maxSearchLimit: 20 });
export const TOOL_SEARCH_LIMITS = Object.freeze({
  codeTimeoutMs: [1_000, 60_000],
  maxSearchLimit: [1, 50],
} as const);

export function resolveToolSearch(value: ToolSearchSetting | undefined): ResolvedToolSearch {
  const options = typeof value === 'object' && value !== null ? value : {};
  const enabled = value === true || (typeof value === 'object' && value !== null && value.enabled !== false);
  const maxSearchLimit = clamp(positiveInt(options.maxSearchLimit) ?? TOOL_SEARCH_DEFAULTS.maxSearchLimit, ...TOOL_SEARCH_LIMITS.maxSearchLimit);
  return {
    enabled,
    mode: enabled ? (options.mode ?? 'code') : 'direct',
    codeTimeoutMs: clamp(positiveInt(options.codeTimeoutMs) ?? TOOL_SEARCH_DEFAULTS.codeTimeoutMs, ...TOOL_SEARCH_LIMITS.codeTimeoutMs),
    searchDefaultLimit: clamp(positiveInt(options.searchDefaultLimit) ?? TOOL_SEARCH_DEFAULTS.searchDefaultLimit, 1, maxSearchLimit),
    maxSearchLimit,
    visible: [...(options.visible ?? [])],
    directoryBudgetChars: positiveInt(options.directoryBudgetChars),
    warmPool: options.warmPool === true ? 1 : (positiveInt(options.warmPool) ?? 0),
    ...(options.embeddings ? { embeddings: options.embeddings } : {}),
  };
}

export function resolveConfig(config: ToolSearchConfig): ResolvedConfig {
  const { toolSearch, ...tools } = config.tools ?? {};
  return {
    ...config,
    tools: { ...tools, toolSearch: resolveToolSearch(toolSearch) },
    agents: config.agents ?? {},
    mcp: { servers: config.mcp?.servers ?? {} },
  };
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
