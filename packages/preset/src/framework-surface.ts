/**
 * What the framework adapters (`@tool-search/ai-sdk`, `langchain`, `openai-agents`) share before they build their
 * framework's tools: the four modes they offer, the check of their `mode` and `maxResults`, and the run's surface for
 * the mode (`deferred` starts from `direct`, every tool, and the framework defers the catalog ones).
 */
import { ConfigError, ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { openToolSearchRun, type OpenRunOptions, type RunSurface, type ToolSearchRun } from './open-run.js';
import { conversationLoads, type ConversationLoads } from './conversation-loads.js';

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
  /**
   * `deferred`: the conversation this run serves (an AI SDK chat id, a LangGraph `thread_id`, an OpenAI Agents
   * session id). The tools its searches find are kept in the state store (`state`, else the config's `state.redis`,
   * else this process) under it, and a run opened for it again starts with them loaded (conversation-loads.ts).
   */
  readonly conversationId?: string;
}

export interface FrameworkSurface {
  readonly opened: ToolSearchRun;
  readonly surface: RunSurface;
  readonly mode: FrameworkMode;
  readonly searchToolName: string;
  /** Tools one search finds: `maxResults`, else the run's `searchDefaultLimit`. */
  readonly limit: number;
  /** The tools the conversation loaded in earlier runs (`conversationId`), and where this run records new ones. */
  readonly loads: ConversationLoads;
}

/**
 * Checks `mode` (`MODE_UNKNOWN`) and `maxResults` (`OPTIONS_INVALID`), opens the run and hands its surface to `build`;
 * the run is closed when `build` throws (an adapter's own refusal, such as a taken search tool name).
 */
export async function withFrameworkSurface<T>(
  options: FrameworkOptions,
  build: (framework: FrameworkSurface) => T | Promise<T>,
): Promise<T> {
  const { mode = 'deferred', searchToolName = 'tool_search', maxResults, conversationId, ...openOptions } = options;
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
  const run = await openToolSearchRun(openOptions);
  let loads: ConversationLoads | undefined;
  // The adapters close the run with `opened.close`: the conversation's store (when opened here) closes with it.
  const opened: ToolSearchRun = {
    ...run,
    close: async () => {
      try {
        await run.close();
      } finally {
        await loads?.close();
      }
    },
  };
  try {
    const surface = await opened.surface(mode === 'deferred' ? 'direct' : mode);
    const limit = maxResults ?? opened.toolSearch.searchDefaultLimit;
    const state = openOptions.state;
    loads = await conversationLoads(opened, surface, {
      ...(mode === 'deferred' && conversationId !== undefined ? { conversationId } : {}),
      ...(state ? { state } : {}),
    });
    return await build({ opened, surface, mode, searchToolName, limit, loads });
  } catch (error) {
    await opened.close();
    throw error;
  }
}
