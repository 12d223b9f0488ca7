/**
 * What the framework adapters (`@tool-search/ai-sdk`, `langchain`, `openai-agents`) share before they build their
 * framework's tools: the four modes they offer, the check of their `mode` and `maxResults`, and the run's surface for
 * the mode (`deferred` starts from `direct`, every tool, and the framework defers the catalog ones).
 */
import { ConfigError, ErrorCode, ToolSearchError, type Run, type ToolResult } from '@tool-search/kernel';
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
  /**
   * `tools` mode, a call before the load: the answer when the model calls `name` itself instead of through `tool_call`
   * (the framework does not offer it): `TOOL_NOT_LOADED`, a hint line naming the `tool_call` to make, then the tool's
   * schema. Undefined in the other modes and for any name that is not a searchable tool of the run (policy applied), so
   * an unknown, denied or hidden tool keeps the framework's own unknown-tool answer.
   */
  callBeforeLoad(name: string): ToolResult | undefined;
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
    const callBeforeLoad = (name: string) => (mode === 'tools' ? viaToolCall(opened.run, name) : undefined);
    return await build({ opened, surface, mode, searchToolName, limit, loads, callBeforeLoad });
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/** In `tools` mode a catalog tool is called through `tool_call`: the hint says exactly how, the schema what to pass. */
function viaToolCall(run: Run, name: string): ToolResult | undefined {
  const tool = run.tool(name);
  if (!tool || tool.catalogMode !== 'catalog') return undefined;
  const code = ErrorCode.TOOL_NOT_LOADED;
  const call = `{"id":${JSON.stringify(tool.id)},"args":{...}}`;
  const message = `${name} was not loaded; its schema is below; call it through tool_call as ${call}.\n${JSON.stringify(tool.inputSchema)}`;
  return {
    content: [{ type: 'text', text: `Error ${code}: ${message}` }],
    structuredContent: { error: { code, message, name, id: tool.id, inputSchema: tool.inputSchema } },
    isError: true,
  };
}
