/**
 * Tool Search as OpenAI Agents SDK function tools. One run per `createToolSearch` (opened with the preset, exactly
 * as the CLI loads a config); every tool's `execute` goes through it, so policy, approvals, loop detection, hooks,
 * telemetry and the session log apply to what the Agents SDK runner calls.
 */
import {
  tool,
  toolSearchTool,
  type FunctionTool,
  type HostedTool,
  type RunContext,
  type ToolErrorFormatter,
  type ToolNotFoundBehavior,
} from '@openai/agents';
import {
  ErrorCode,
  errorMessage,
  notLoadedResult,
  ToolSearchError,
  type Run,
  type ToolResult,
} from '@tool-search/kernel';
import { toolResultText } from '@tool-search/provider-formats';
import {
  FRAMEWORK_MODES,
  withFrameworkSurface,
  type FrameworkMode,
  type FrameworkOptions,
  type ConversationLoads,
  type RunTool,
  type ToolSearchRun,
} from '@tool-search/preset';
import { OpenAIAgentsErrors } from './errors.js';

/**
 * `deferred`: a `tool_search` function tool ranked by Tool Search; catalog tools are enabled (`isEnabled`) for a
 * run once a search found them. `code`: `tool_search_code`. `tools`: the three control tools. `direct`: every tool.
 */
export type AgentsMode = FrameworkMode;
export const AGENTS_MODES: readonly AgentsMode[] = FRAMEWORK_MODES;

/** `mode` (default `deferred`), `searchToolName`, `maxResults` (tools one search enables), the run's options, and: */
export interface CreateToolSearchOptions extends FrameworkOptions {
  /**
   * `deferred` with a Responses API model: the SDK's own `toolSearchTool({ execution: 'client' })`, whose executor is
   * Tool Search's ranker, and every catalog tool as a function tool with `deferLoading: true`. Default `false`
   * (function tools enabled per SDK run: works with Chat Completions models too).
   */
  readonly responsesToolSearch?: boolean;
}

export interface ToolSearchTools {
  /** Pass to `new Agent({ tools })`. */
  readonly tools: (FunctionTool | HostedTool)[];
  readonly mode: AgentsMode;
  /** The run every call goes through (its session id names the session log). */
  readonly run: Run;
  /** The tool name of a catalog tool id (names are provider-safe, ids are not). */
  toolName(toolId: string): string | undefined;
  /**
   * Spread into `runner.run(agent, input, { ...runOptions })` (or `new Runner({ ...runOptions })`), deferred mode: a
   * call of a catalog tool no search enabled yet answers with its schema (`TOOL_NOT_LOADED`) and enables it for the
   * next turn, instead of the SDK's `ModelBehaviorError` that ends the run; `tools` mode: with the schema and the
   * `tool_call` to make. Unknown and denied names get the SDK's own "not found" text.
   */
  readonly runOptions: {
    readonly toolNotFoundBehavior: ToolNotFoundBehavior;
    readonly toolErrorFormatter: ToolErrorFormatter;
  };
  close(): Promise<void>;
}

// The Agents SDK's tool error text: the model reads it as the tool's output; the code is the project's.
const errorText = (_context: RunContext, error: unknown): string =>
  ToolSearchError.isInstance(error) ? `Error ${error.code}: ${error.message}` : `Error: ${errorMessage(error)}`;

export async function createToolSearch(options: CreateToolSearchOptions = {}): Promise<ToolSearchTools> {
  const { responsesToolSearch = false, ...frameworkOptions } = options;
  return withFrameworkSurface(
    frameworkOptions,
    ({ opened, surface, mode, searchToolName, limit, loads, callBeforeLoad }) => {
      // Per Agents SDK run (its RunContext), the tools a search found: enabled from the next turn on.
      const found = new WeakMap<object, Set<string>>();
      const deferred = new Map(
        mode === 'deferred' && !responsesToolSearch
          ? surface.tools.filter((t) => t.catalogMode === 'catalog').map((t) => [t.name, t])
          : [],
      );
      const runOptions = {
        toolNotFoundBehavior: 'return_error_to_model' as const,
        toolErrorFormatter: earlyLoader(deferred, found, loads, callBeforeLoad),
      };
      if (mode === 'deferred' && responsesToolSearch) {
        // A tool the conversation loaded in an earlier run (`conversationId`) is not deferred.
        const tools = surface.tools.map((runTool) =>
          functionTool(runTool, undefined, runTool.catalogMode === 'catalog' && !loads.names.has(runTool.name)),
        );
        return {
          tools: [hostedSearch(opened, surface.nameOf, limit, loads), ...tools],
          mode,
          run: opened.run,
          toolName: surface.nameOf,
          runOptions,
          close: opened.close,
        };
      }
      const tools: (FunctionTool | HostedTool)[] = surface.tools.map((runTool) =>
        functionTool(
          runTool,
          mode === 'deferred' && runTool.catalogMode === 'catalog' ? found : undefined,
          false,
          loads,
        ),
      );
      if (mode === 'deferred') {
        if (tools.some((candidate) => candidate.name === searchToolName)) {
          throw new ToolSearchError(
            OpenAIAgentsErrors.AGENTS_TOOL_NAME_TAKEN,
            `A catalog tool is named "${searchToolName}", the search tool's name; pass another searchToolName`,
            {
              details: { name: searchToolName },
            },
          );
        }
        tools.unshift(searchTool(opened, searchToolName, surface.nameOf, deferred, found, limit, loads));
      }
      return { tools, mode, run: opened.run, toolName: surface.nameOf, runOptions, close: opened.close };
    },
  );
}

/**
 * A call before the load: the SDK finds no enabled tool by the name the model called (with `return_error_to_model`,
 * a tool message instead of a run-ending error). For a deferred catalog tool of the run (policy applied) the message
 * is its schema and a hint, and the tool is enabled for this SDK run from the next turn; in `tools` mode, for a
 * searchable tool of the run, the schema and the `tool_call` to make. Any other name (unknown, denied) keeps the SDK's
 * default text, so a denied tool reads like one that does not exist.
 */
function earlyLoader(
  deferred: ReadonlyMap<string, RunTool>,
  found: WeakMap<object, Set<string>>,
  loads: ConversationLoads,
  callBeforeLoad: (name: string) => ToolResult | undefined,
): ToolErrorFormatter {
  return async ({ kind, toolName, runContext }) => {
    if (kind !== 'tool_not_found') return undefined;
    const runTool = deferred.get(toolName);
    if (!runTool) {
      const answer = callBeforeLoad(toolName);
      return answer && toolResultText(answer);
    }
    let set = found.get(runContext);
    if (!set) found.set(runContext, (set = new Set()));
    set.add(runTool.name);
    await loads.remember([runTool.name]);
    return toolResultText(notLoadedResult(runTool.name, runTool.inputSchema));
  };
}

function functionTool(
  runTool: RunTool,
  found: WeakMap<object, Set<string>> | undefined,
  deferLoading = false,
  loads?: ConversationLoads,
): FunctionTool {
  return tool({
    ...(deferLoading ? { deferLoading: true } : {}),
    name: runTool.name,
    description: runTool.description,
    parameters: runTool.inputSchema as never,
    strict: false,
    execute: async (input, _context, details) =>
      toolResultText(await runTool.call(input, details?.signal ? { signal: details.signal } : {})),
    errorFunction: errorText,
    ...(found
      ? {
          // Found by a search in this SDK run, or loaded by the conversation in an earlier one (`conversationId`).
          isEnabled: ({ runContext }: { runContext: RunContext }) =>
            found.get(runContext)?.has(runTool.name) === true || loads?.names.has(runTool.name) === true,
        }
      : {}),
  }) as FunctionTool;
}

/** The SDK's client-executed `tool_search` (Responses API): the model asks `{ query }`, Tool Search's ranker picks the tools to load. */
function hostedSearch(
  opened: ToolSearchRun,
  nameOf: (toolId: string) => string | undefined,
  limit: number,
  loads: ConversationLoads,
): HostedTool {
  return toolSearchTool({
    execution: 'client',
    description: `Search for tools matching a query. Loads up to ${limit} matching tools.`,
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 } },
      required: ['query'],
      additionalProperties: false,
    },
    execute: async ({ toolCall, availableTools }) => {
      const args = toolCall.arguments;
      const query =
        typeof args === 'object' && args !== null && typeof (args as { query?: unknown }).query === 'string'
          ? (args as { query: string }).query
          : '';
      if (!query.trim()) return [];
      const names = (await opened.search(query, { limit, origin: 'tool_call' })).map(nameOf);
      const byName = new Map(availableTools.map((candidate) => [candidate.name, candidate]));
      const hits = names.flatMap((name) => (name !== undefined && byName.has(name) ? [byName.get(name)!] : []));
      await loads.remember(hits.map((hit) => hit.name));
      return hits;
    },
  });
}

function searchTool(
  opened: ToolSearchRun,
  name: string,
  nameOf: (toolId: string) => string | undefined,
  deferred: ReadonlyMap<string, RunTool>,
  found: WeakMap<object, Set<string>>,
  limit: number,
  loads: ConversationLoads,
): FunctionTool {
  return tool({
    name,
    description: `Search for tools matching a query. Returns up to ${limit} matching tools; they become available on the next turn. If none match, try other words.`,
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 } },
      required: ['query'],
      additionalProperties: false,
    } as never,
    strict: false,
    execute: async (input, context) => {
      const query = typeof (input as { query?: unknown }).query === 'string' ? (input as { query: string }).query : '';
      if (!query.trim())
        throw new ToolSearchError(
          ErrorCode.TOOL_ARGUMENTS_INVALID,
          'give `query`: what the tool should do, in a few words',
        );
      const ids = await opened.search(query, { limit, origin: 'tool_call' });
      const names = ids.map(nameOf).filter((n): n is string => n !== undefined && deferred.has(n));
      if (context) {
        let set = found.get(context);
        if (!set) found.set(context, (set = new Set()));
        for (const n of names) set.add(n);
      }
      await loads.remember(names);
      return JSON.stringify({ tools: names.map((n) => ({ name: n, description: deferred.get(n)!.description })) });
    },
    errorFunction: errorText,
  }) as FunctionTool;
}
