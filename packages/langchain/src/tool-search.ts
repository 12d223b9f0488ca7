/**
 * Tool Search inside LangChain.js v1 `createAgent`: a middleware that registers the tools and, in the deferred mode,
 * shows the model only the search tool, the direct-only tools and what its searches found (`wrapModelCall`). One run
 * per `createToolSearch` (opened with the preset, exactly as the CLI loads a config); every tool call goes through it.
 */
import { createMiddleware, type AgentMiddleware } from 'langchain';
import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { ErrorCode, notLoadedResult, ToolSearchError, type Run, type ToolResult } from '@tool-search/kernel';
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
import { LangChainErrors } from './errors.js';

/** `deferred`: `tool_search` ranked by Tool Search, found tools shown from the next model call; `code`; `tools`; `direct`. */
export type LangChainMode = FrameworkMode;
export const LANGCHAIN_MODES: readonly LangChainMode[] = FRAMEWORK_MODES;

/** `mode` (default `deferred`), `searchToolName`, `maxResults`, and the run's options. */
export type CreateToolSearchOptions = FrameworkOptions;

export interface ToolSearchMiddleware {
  /** `createAgent({ model, middleware: [middleware] })`: registers `tools` and filters what the model sees per call. */
  readonly middleware: AgentMiddleware;
  /**
   * The same tools, for `createAgent({ tools })` in the modes that need no filtering (`code`, `tools`, `direct`);
   * in `tools` mode only the middleware answers a catalog tool called by its name (a call before the load).
   */
  readonly tools: StructuredToolInterface[];
  readonly mode: LangChainMode;
  /** The run every call goes through (its session id names the session log). */
  readonly run: Run;
  /** The tool name of a catalog tool id (names are provider-safe, ids are not). */
  toolName(toolId: string): string | undefined;
  close(): Promise<void>;
}

export async function createToolSearch(options: CreateToolSearchOptions = {}): Promise<ToolSearchMiddleware> {
  return withFrameworkSurface(options, ({ opened, surface, mode, searchToolName, limit, loads, callBeforeLoad }) => {
    const tools = surface.tools.map(langchainTool);
    const deferred = new Map(
      mode === 'deferred' ? surface.tools.filter((t) => t.catalogMode === 'catalog').map((t) => [t.name, t]) : [],
    );
    if (mode === 'deferred') {
      if (tools.some((candidate) => candidate.name === searchToolName)) {
        throw new ToolSearchError(
          LangChainErrors.LANGCHAIN_TOOL_NAME_TAKEN,
          `A catalog tool is named "${searchToolName}", the search tool's name; pass another searchToolName`,
          {
            details: { name: searchToolName },
          },
        );
      }
      tools.unshift(searchTool(opened, searchToolName, surface.nameOf, deferred, limit, loads));
    }
    // Loaded: what this thread's messages show, and what the conversation loaded in earlier runs (`conversationId`).
    const loadedIn = (messages: readonly BaseMessage[]) =>
      new Set([...loads.names, ...foundNames(messages, searchToolName)]);
    const middleware = createMiddleware({
      name: 'ToolSearch',
      tools,
      wrapModelCall: (request, handler) => {
        if (deferred.size === 0) return handler(request);
        const shown = loadedIn(request.messages);
        return handler({
          ...request,
          tools: request.tools.filter((t) => !deferred.has(nameOf(t)) || shown.has(nameOf(t))),
        });
      },
      wrapToolCall: (request, handler) => {
        // tools mode: a catalog tool called by its name, not registered (it is reached through tool_call).
        const answer = request.tool ? undefined : callBeforeLoad(request.toolCall.name);
        if (answer) return viaToolCall(answer, request.toolCall);
        const runTool = deferred.get(request.toolCall.name);
        if (!runTool || loadedIn(request.state.messages).has(runTool.name)) return handler(request);
        return loads.remember([runTool.name]).then(() => notLoaded(runTool, request.toolCall.id));
      },
    }) as AgentMiddleware;
    return { middleware, tools, mode, run: opened.run, toolName: surface.nameOf, close: opened.close };
  });
}

function nameOf(candidate: unknown): string {
  return typeof candidate === 'object' &&
    candidate !== null &&
    typeof (candidate as { name?: unknown }).name === 'string'
    ? (candidate as { name: string }).name
    : '';
}

/** Tool names the search tool returned earlier in this conversation, and those a call before the load loaded. */
function foundNames(messages: readonly BaseMessage[], searchToolName: string): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    if (!ToolMessage.isInstance(message)) continue;
    const loaded = (message.artifact as { loaded?: unknown } | undefined)?.loaded;
    if (typeof loaded === 'string' && loaded === message.name) names.add(loaded);
    if (message.name !== searchToolName || message.status === 'error') continue;
    const found = (message.artifact as { tools?: unknown } | undefined)?.tools;
    if (Array.isArray(found)) for (const name of found) if (typeof name === 'string') names.add(name);
  }
  return names;
}

/**
 * A call before the load: the model called a deferred catalog tool no search showed it (LangChain would run it, with
 * arguments guessed without its schema). Nothing runs; the answer is the tool's schema and a hint, and its artifact
 * shows the tool from the next model call on. Only the run's deferred tools (policy applied) get here: another name
 * goes to LangChain as before.
 */
function notLoaded(runTool: RunTool, toolCallId: string | undefined): ToolMessage {
  return new ToolMessage({
    content: toolResultText(notLoadedResult(runTool.name, runTool.inputSchema)),
    name: runTool.name,
    tool_call_id: toolCallId ?? '',
    status: 'error',
    artifact: { loaded: runTool.name },
  });
}

/**
 * A call before the load in `tools` mode: the model called a catalog tool by its name, which the agent does not have
 * (LangChain would answer that the tool does not exist). Nothing runs; the answer is the tool's schema and the
 * `tool_call` to make. Only searchable tools of the run (policy applied) get here: another name goes to LangChain.
 */
function viaToolCall(answer: ToolResult, toolCall: { name: string; id?: string }): ToolMessage {
  return new ToolMessage({
    content: toolResultText(answer),
    name: toolCall.name,
    tool_call_id: toolCall.id ?? '',
    status: 'error',
  });
}

/** A run tool as a LangChain tool: JSON Schema in, the result's text out, coded errors as an error ToolMessage. */
function langchainTool(runTool: RunTool): StructuredToolInterface {
  return tool(
    async (input: unknown, config) => {
      try {
        return toolResultText(await runTool.call(input, config?.signal ? { signal: config.signal } : {}));
      } catch (error) {
        return errorMessage(error, runTool.name, config?.toolCall?.id);
      }
    },
    // A copy: the kernel's schemas are frozen, and LangChain's validator annotates the schema it is given.
    { name: runTool.name, description: runTool.description, schema: structuredClone(runTool.inputSchema) as never },
  ) as unknown as StructuredToolInterface;
}

/** LangChain's tool error: a ToolMessage with `status: 'error'`, the project's code in its text and artifact. */
function errorMessage(error: unknown, name: string, toolCallId: string | undefined): ToolMessage | string {
  if (!ToolSearchError.isInstance(error)) throw error;
  const content = `Error ${error.code}: ${error.message}`;
  if (toolCallId === undefined) throw error; // called outside an agent: the caller gets the coded error itself
  return new ToolMessage({ content, name, tool_call_id: toolCallId, status: 'error', artifact: error.toJSON() });
}

function searchTool(
  opened: ToolSearchRun,
  name: string,
  nameOfId: (toolId: string) => string | undefined,
  deferred: ReadonlyMap<string, RunTool>,
  limit: number,
  loads: ConversationLoads,
): StructuredToolInterface {
  return tool(
    async (input: { query?: unknown }, config) => {
      const query = typeof input.query === 'string' ? input.query : '';
      if (!query.trim())
        return errorMessage(
          new ToolSearchError(
            ErrorCode.TOOL_ARGUMENTS_INVALID,
            'give `query`: what the tool should do, in a few words',
          ),
          name,
          config?.toolCall?.id,
        );
      const ids = await opened.search(query, { limit, origin: 'tool_call' });
      const names = ids.map(nameOfId).filter((n): n is string => n !== undefined && deferred.has(n));
      await loads.remember(names);
      const content = JSON.stringify({
        tools: names.map((n) => ({ name: n, description: deferred.get(n)!.description })),
      });
      // The artifact carries the names the middleware shows from the next model call on; the model reads `content`.
      if (config?.toolCall?.id === undefined) return content;
      return new ToolMessage({ content, name, tool_call_id: config.toolCall.id, artifact: { tools: names } });
    },
    {
      name,
      description: `Search for tools matching a query. Returns up to ${limit} matching tools; they become available on the next step. If none match, try other words.`,
      schema: {
        type: 'object',
        properties: { query: { type: 'string', minLength: 1 } },
        required: ['query'],
        additionalProperties: false,
      } as never,
    },
  ) as unknown as StructuredToolInterface;
}
