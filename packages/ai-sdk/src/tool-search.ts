/**
 * Tool Search as an AI SDK `ToolSet`. One run per `createToolSearch` (opened with the preset, exactly as the CLI
 * loads a config); every tool's `execute` goes through that run, so policy, approvals, loop detection, hooks,
 * telemetry and the session log apply to what the framework's agent loop calls.
 */
import {
  jsonSchema,
  NoSuchToolError,
  tool,
  toolSearch,
  type Tool,
  type ToolCallRepairFunction,
  type ToolSet,
} from 'ai';
import { notLoadedResult, ToolSearchError, type Run, type ToolResult } from '@tool-search/kernel';
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
import { AiSdkErrors } from './errors.js';

/** `deferred`: the AI SDK's `toolSearch` with Tool Search's ranker; `code`: `tool_search_code`; `tools`: the three control tools; `direct`: every tool. */
export type AiSdkMode = FrameworkMode;
export const AI_SDK_MODES: readonly AiSdkMode[] = FRAMEWORK_MODES;
/** `tool_describe`, the tools-mode control tool a repaired call of a catalog tool becomes (it answers without running). */
const DESCRIBE = 'tool_describe';

/**
 * `mode` (default `deferred`), `searchToolName` (the search tool's name in the `ToolSet`), `maxResults`,
 * `conversationId` (the tools its searches find are kept for the next run of that conversation), and the run's options.
 */
export type CreateToolSearchOptions = FrameworkOptions;

export interface ToolSearchToolSet {
  /** Pass to `generateText` / `streamText` / `ToolLoopAgent` as `tools`. */
  readonly tools: ToolSet;
  readonly mode: AiSdkMode;
  /** The run every call goes through (its session id names the session log). */
  readonly run: Run;
  /** The `ToolSet` name of a catalog tool id (names are provider-safe, ids are not). */
  toolName(toolId: string): string | undefined;
  /**
   * Pass to `generateText` / `streamText` as `repairToolCall` (deferred mode): a call of a catalog tool no search
   * loaded yet loads it and answers with its schema (`TOOL_NOT_LOADED`) instead of the AI SDK's unavailable-tool error;
   * the next step offers it. `tools` mode: such a call answers with the schema and the `tool_call` to make instead.
   * Other calls (unknown or denied names, bad input) are left to the AI SDK.
   */
  readonly repairToolCall: ToolCallRepairFunction<ToolSet>;
  /** Closes the run (the session log is written) and stops MCP servers. */
  close(): Promise<void>;
}

export async function createToolSearch(options: CreateToolSearchOptions = {}): Promise<ToolSearchToolSet> {
  return withFrameworkSurface(options, ({ opened, surface, mode, searchToolName, limit, loads, callBeforeLoad }) => {
    const tools: Record<string, Tool> = {};
    // A tool the conversation loaded in an earlier run (`conversationId`) is offered from the first step.
    const deferLoading = (runTool: RunTool) =>
      mode === 'deferred' && runTool.catalogMode === 'catalog' && !loads.names.has(runTool.name);
    const viaToolCall = toolCallHinter(callBeforeLoad);
    for (const runTool of surface.tools)
      tools[runTool.name] = aiTool(runTool, deferLoading(runTool), runTool.name === DESCRIBE ? viaToolCall : undefined);
    const loader = earlyLoader(surface.tools, searchToolName);
    if (mode === 'deferred') {
      if (Object.hasOwn(tools, searchToolName)) {
        throw new ToolSearchError(
          AiSdkErrors.AI_SDK_TOOL_NAME_TAKEN,
          `A catalog tool is named "${searchToolName}", the search tool's name; pass another searchToolName`,
          {
            details: { name: searchToolName },
          },
        );
      }
      tools[searchToolName] = searchTool(opened, surface.nameOf, limit, loader, loads);
    }
    const repairToolCall: ToolCallRepairFunction<ToolSet> = async (options) => {
      if (mode === 'deferred') return loader.repair(options);
      return mode === 'tools' && Object.hasOwn(tools, DESCRIBE) ? viaToolCall.repair(options) : null;
    };
    return { tools, mode, run: opened.run, toolName: surface.nameOf, repairToolCall, close: opened.close };
  });
}

/** A run tool as an AI SDK tool: JSON Schema in, the result's text out to the model, coded errors as tool errors. */
function aiTool(runTool: RunTool, deferLoading: boolean, hinter?: ToolCallHinter): Tool {
  return tool<unknown, ToolResult, Record<string, never>>({
    description: runTool.description,
    inputSchema: jsonSchema(runTool.inputSchema as Parameters<typeof jsonSchema>[0]),
    ...(deferLoading ? { deferLoading: true } : {}),
    execute: (input, { abortSignal, toolCallId }) =>
      hinter?.take(toolCallId) ?? runTool.call(input, abortSignal ? { signal: abortSignal } : {}),
    toModelOutput: ({ output }) => ({ type: 'text', value: toolResultText(output) }),
  });
}

/** The AI SDK's own `toolSearch`, ranking with Tool Search over the run's policy-filtered catalog. */
function searchTool(
  opened: ToolSearchRun,
  nameOf: (toolId: string) => string | undefined,
  maxResults: number,
  loader: EarlyLoader,
  loads: ConversationLoads,
): Tool {
  const search = toolSearch({
    maxResults,
    search: remembered(loads, async ({ query, tools }) => {
      const deferred = new Set(tools.map((candidate) => candidate.name));
      // A repaired call of a tool not loaded yet: load exactly it, without a ranked search.
      if (loader.take(query)) return deferred.has(query) ? [query] : [];
      const ids = await opened.search(query, { limit: maxResults, origin: 'tool_call' });
      return ids.map(nameOf).filter((name): name is string => name !== undefined && deferred.has(name));
    }),
  });
  // The symbols toolSearch marks its tool with stay: the AI SDK binds the search by them.
  return Object.assign(search, { toModelOutput: loader.modelOutput }) as Tool;
}

/** The AI SDK loads what a search returns for the rest of its generation; the conversation keeps it for its next run. */
function remembered<A>(loads: ConversationLoads, search: (request: A) => Promise<string[]>) {
  return async (request: A): Promise<string[]> => {
    const found = await search(request);
    await loads.remember(found);
    return found;
  };
}

type EarlyLoader = ReturnType<typeof earlyLoader>;

/**
 * A call before the load, in the AI SDK's deferred loading: the model calls a catalog tool by name that no search
 * loaded. The AI SDK refuses it (`NoSuchToolError`) before any `execute`; `repair` turns it into a search call for
 * exactly that tool (so the AI SDK loads it for the next step) whose output is the tool's schema and a hint. Only
 * deferred catalog tools of the run (policy applied) are repaired: another name gets the AI SDK's own answer.
 */
function earlyLoader(runTools: readonly RunTool[], searchToolName: string) {
  const deferred = new Map(runTools.filter((t) => t.catalogMode === 'catalog').map((t) => [t.name, t]));
  const pending = new Set<string>();
  const answers = new Map<string, RunTool>();
  return {
    async repair({ toolCall, error }: Parameters<ToolCallRepairFunction<ToolSet>>[0]) {
      const runTool = deferred.get(toolCall.toolName);
      if (!NoSuchToolError.isInstance(error) || !runTool) return null;
      pending.add(runTool.name);
      answers.set(toolCall.toolCallId, runTool);
      return { ...toolCall, toolName: searchToolName, input: JSON.stringify({ query: runTool.name }) };
    },
    take: (query: string): boolean => pending.delete(query),
    modelOutput({ toolCallId, output }: { toolCallId: string; output: unknown }) {
      const runTool = answers.get(toolCallId);
      if (!runTool) return { type: 'json' as const, value: output as never };
      answers.delete(toolCallId);
      // Plain text (the provider wraps `error-text` in JSON): the hint line, then the schema.
      return { type: 'text' as const, value: toolResultText(notLoadedResult(runTool.name, runTool.inputSchema)) };
    },
  };
}

type ToolCallHinter = ReturnType<typeof toolCallHinter>;

/**
 * A call before the load, in `tools` mode: the model calls a catalog tool by its name, which the `ToolSet` does not
 * have (it is reached through `tool_call`); the AI SDK refuses it (`NoSuchToolError`) before any `execute`. `repair`
 * makes it a `tool_describe` call of that tool whose `execute` runs nothing and answers `TOOL_NOT_LOADED`: the hint
 * names the `tool_call` to make, then the schema. A name that is no searchable tool of the run (unknown, denied) is left
 * to the AI SDK, so a denied tool reads like one that does not exist.
 */
function toolCallHinter(callBeforeLoad: (name: string) => ToolResult | undefined) {
  const answers = new Map<string, ToolResult>();
  return {
    async repair({ toolCall, error }: Parameters<ToolCallRepairFunction<ToolSet>>[0]) {
      const answer = NoSuchToolError.isInstance(error) ? callBeforeLoad(toolCall.toolName) : undefined;
      if (!answer) return null;
      answers.set(toolCall.toolCallId, answer);
      return { ...toolCall, toolName: DESCRIBE, input: JSON.stringify({ id: toolCall.toolName }) };
    },
    take(toolCallId: string): Promise<ToolResult> | undefined {
      const answer = answers.get(toolCallId);
      if (!answer) return undefined;
      answers.delete(toolCallId);
      return Promise.resolve(answer);
    },
  };
}
