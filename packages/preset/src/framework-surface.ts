/**
 * What the framework adapters (`@tool-search/ai-sdk`, `langchain`, `openai-agents`) share before they build their
 * framework's tools: the four modes they offer, the check of their `mode` and `maxResults`, and the run's surface for
 * the mode (`deferred` starts from `direct`, every tool, and the framework defers the catalog ones).
 */
import { ConfigError, ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { openToolSearchRun, type OpenRunOptions, type RunSurface, type ToolSearchRun } from './open-run.js';

/** `deferred`: the framework's own search-then-load with Tool Search's ranker; or an exposure mode. */
export type FrameworkMode = 'deferred' | 'code' | 'tools' | 'direct';
export const FRAMEWORK_MODES: readonly FrameworkMode[] = Object.freeze(['deferred', 'code', 'tools', 'direct']);

export interface FrameworkOptions extends OpenRunOptions {
  /** Default `deferred`. */
  readonly mode?: FrameworkMode;
  /** `deferred`: the search tool's name. Default `tool_search`. */
  readonly searchToolName?: string;
  /** `deferred`: tools one search finds. Default: the run's `searchDefaultLimit` (8 unless configured). */
  readonly maxResults?: number;
}

export interface FrameworkSurface {
  readonly opened: ToolSearchRun;
  readonly surface: RunSurface;
  readonly mode: FrameworkMode;
  readonly searchToolName: string;
  /** Tools one search finds: `maxResults`, else the run's `searchDefaultLimit`. */
  readonly limit: number;
}

/**
 * Checks `mode` (`MODE_UNKNOWN`) and `maxResults` (`OPTIONS_INVALID`), opens the run and hands its surface to `build`;
 * the run is closed when `build` throws (an adapter's own refusal, such as a taken search tool name).
 */
export async function withFrameworkSurface<T>(
  options: FrameworkOptions,
  build: (framework: FrameworkSurface) => T | Promise<T>,
): Promise<T> {
  const { mode = 'deferred', searchToolName = 'tool_search', maxResults, ...openOptions } = options;
  if (!FRAMEWORK_MODES.includes(mode)) {
    throw new ToolSearchError(
      ErrorCode.MODE_UNKNOWN,
      `Unknown mode "${String(mode)}"; use one of ${FRAMEWORK_MODES.join(', ')}`,
      { details: { mode } },
    );
  }
  if (maxResults !== undefined && (!Number.isSafeInteger(maxResults) || maxResults < 1)) {
    throw new ConfigError('/maxResults', 'positiveInteger', 'maxResults must be a positive integer', {
      code: ErrorCode.OPTIONS_INVALID,
    });
  }
  const opened = await openToolSearchRun(openOptions);
  try {
    const surface = await opened.surface(mode === 'deferred' ? 'direct' : mode);
    const limit = maxResults ?? opened.toolSearch.searchDefaultLimit;
    return await build({ opened, surface, mode, searchToolName, limit });
  } catch (error) {
    await opened.close();
    throw error;
  }
}
