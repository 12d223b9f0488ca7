/**
 * Tool Search as an AI SDK `ToolSet`. One run per `createToolSearch` (opened with the preset, exactly as the CLI
 * loads a config); every tool's `execute` goes through that run, so policy, approvals, loop detection, hooks,
 * telemetry and the session log apply to what the framework's agent loop calls.
 */
import { jsonSchema, tool, toolSearch, type Tool, type ToolSet } from 'ai';
import { ToolSearchError, type Run, type ToolResult } from '@tool-search/kernel';
import { toolResultText } from '@tool-search/provider-formats';
import {
  FRAMEWORK_MODES,
  withFrameworkSurface,
  type FrameworkMode,
  type FrameworkOptions,
  type RunTool,
  type ToolSearchRun,
} from '@tool-search/preset';
import { AiSdkErrors } from './errors.js';

/** `deferred`: the AI SDK's `toolSearch` with Tool Search's ranker; `code`: `tool_search_code`; `tools`: the three control tools; `direct`: every tool. */
export type AiSdkMode = FrameworkMode;
export const AI_SDK_MODES: readonly AiSdkMode[] = FRAMEWORK_MODES;

/** `mode` (default `deferred`), `searchToolName` (the search tool's name in the `ToolSet`), `maxResults`, and the run's options. */
export type CreateToolSearchOptions = FrameworkOptions;

export interface ToolSearchToolSet {
  /** Pass to `generateText` / `streamText` / `ToolLoopAgent` as `tools`. */
  readonly tools: ToolSet;
  readonly mode: AiSdkMode;
  /** The run every call goes through (its session id names the session log). */
  readonly run: Run;
  /** The `ToolSet` name of a catalog tool id (names are provider-safe, ids are not). */
  toolName(toolId: string): string | undefined;
  /** Closes the run (the session log is written) and stops MCP servers. */
  close(): Promise<void>;
}

export async function createToolSearch(options: CreateToolSearchOptions = {}): Promise<ToolSearchToolSet> {
  return withFrameworkSurface(options, ({ opened, surface, mode, searchToolName, limit }) => {
    const tools: Record<string, Tool> = {};
    for (const runTool of surface.tools)
      tools[runTool.name] = aiTool(runTool, mode === 'deferred' && runTool.catalogMode === 'catalog');
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
      tools[searchToolName] = searchTool(opened, surface.nameOf, limit);
    }
    return { tools, mode, run: opened.run, toolName: surface.nameOf, close: opened.close };
  });
}

/** A run tool as an AI SDK tool: JSON Schema in, the result's text out to the model, coded errors as tool errors. */
function aiTool(runTool: RunTool, deferLoading: boolean): Tool {
  return tool<unknown, ToolResult, Record<string, never>>({
    description: runTool.description,
    inputSchema: jsonSchema(runTool.inputSchema as Parameters<typeof jsonSchema>[0]),
    ...(deferLoading ? { deferLoading: true } : {}),
    execute: (input, { abortSignal }) => runTool.call(input, abortSignal ? { signal: abortSignal } : {}),
    toModelOutput: ({ output }) => ({ type: 'text', value: toolResultText(output) }),
  });
}

/** The AI SDK's own `toolSearch`, ranking with Tool Search over the run's policy-filtered catalog. */
function searchTool(opened: ToolSearchRun, nameOf: (toolId: string) => string | undefined, maxResults: number): Tool {
  return toolSearch({
    maxResults,
    search: async ({ query, tools }) => {
      const deferred = new Set(tools.map((candidate) => candidate.name));
      const ids = await opened.search(query, { limit: maxResults, origin: 'tool_call' });
      return ids.map(nameOf).filter((name): name is string => name !== undefined && deferred.has(name));
    },
  }) as Tool;
}
