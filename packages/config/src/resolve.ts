/**
 * The resolved view: every section present, `tools.toolSearch` turned into
 * concrete numbers. The schema refuses a non-number (NaN and Infinity
 * included); any number is clamped into its range here (below → minimum,
 * above → maximum, a fraction rounded), as the Tool Search document says.
 */
import type {
  ResolvedConfig,
  ResolvedToolSearch,
  ToolSearchConfig,
  ToolSearchOptions,
  ToolSearchSetting,
} from './types.js';

export const TOOL_SEARCH_DEFAULTS = Object.freeze({ codeTimeoutMs: 10_000, searchDefaultLimit: 8, maxSearchLimit: 20 });
export const TOOL_SEARCH_LIMITS = Object.freeze({
  codeTimeoutMs: [1_000, 60_000],
  maxSearchLimit: [1, 50],
  warmPool: [0, 8],
  maxConcurrent: [1, 64],
} as const);

export function resolveToolSearch(value: ToolSearchSetting | undefined): ResolvedToolSearch {
  const options = typeof value === 'object' && value !== null ? value : {};
  const enabled = value === true || (typeof value === 'object' && value !== null && value.enabled !== false);
  const maxSearchLimit = bounded(
    options.maxSearchLimit,
    TOOL_SEARCH_DEFAULTS.maxSearchLimit,
    ...TOOL_SEARCH_LIMITS.maxSearchLimit,
  );
  return {
    enabled,
    mode: enabled ? (options.mode ?? 'code') : 'direct',
    codeTimeoutMs: bounded(
      options.codeTimeoutMs,
      TOOL_SEARCH_DEFAULTS.codeTimeoutMs,
      ...TOOL_SEARCH_LIMITS.codeTimeoutMs,
    ),
    searchDefaultLimit: bounded(
      options.searchDefaultLimit,
      Math.min(TOOL_SEARCH_DEFAULTS.searchDefaultLimit, maxSearchLimit),
      1,
      maxSearchLimit,
    ),
    maxSearchLimit,
    visible: [...(options.visible ?? [])],
    directoryBudgetChars: positiveInt(options.directoryBudgetChars),
    warmPool: options.warmPool === true ? 1 : bounded(options.warmPool, 0, ...TOOL_SEARCH_LIMITS.warmPool),
    sandbox: options.sandbox ?? 'process',
    maxConcurrent: bounded(options.maxConcurrent, 4, ...TOOL_SEARCH_LIMITS.maxConcurrent),
    ...(options.embeddings ? { embeddings: options.embeddings } : {}),
    ...(typeof options.description === 'string' && options.description.trim()
      ? { description: options.description.trim() }
      : {}),
    directory: directoryOptions(options),
    direct: options.direct?.budgetChars !== undefined ? { budgetChars: options.direct.budgetChars } : {},
    ...(options.learning !== undefined
      ? { learning: typeof options.learning === 'boolean' ? { enabled: options.learning } : { ...options.learning } }
      : {}),
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

/** `directory.*` as set; `directory.budgetChars` wins over the older `directoryBudgetChars`. */
function directoryOptions(options: ToolSearchOptions): ResolvedToolSearch['directory'] {
  const budgetChars = options.directory?.budgetChars ?? positiveInt(options.directoryBudgetChars);
  return {
    ...(options.directory?.turnTools !== undefined ? { turnTools: options.directory.turnTools } : {}),
    ...(budgetChars !== undefined ? { budgetChars } : {}),
  };
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** A finite number clamped into [min, max] (rounded); anything else (absent) takes the default. */
function bounded(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? clamp(Math.round(value), min, max) : fallback;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
