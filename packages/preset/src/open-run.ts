/**
 * One run from a config, for code that embeds Tool Search in someone else's agent loop (the framework adapters):
 * load the config exactly as the CLI does (a path, or an object validated the same way), build the preset, open a
 * run for the party (agent, provider, model) with the `toolSearch` setting that applies to it, and search the run's
 * policy-filtered catalog with the ranker every mode uses, logged like `tool_search`'s searches.
 */
import { resolve } from 'node:path';
import {
  loadConfig,
  resolvePaths,
  resolveToolSearchFor,
  validateConfig,
  type ResolvedToolSearchFor,
  type ToolSearchConfig,
} from '@tool-search/config';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import type {
  CallOrigin,
  CatalogMode,
  JsonSchema,
  Run,
  RunRequest,
  ToolCallOutcome,
  ToolResult,
} from '@tool-search/kernel';
import { providerExposure, type ProviderExposure } from '@tool-search/provider-formats';
import { indexForRun } from '@tool-search/search';
import { createToolSearchKernel, type Preset, type PresetOptions } from './preset.js';
import { sandboxFieldOf } from './sandboxed-runs.js';

export interface OpenRunOptions extends Omit<PresetOptions, 'baseDir'> {
  /**
   * A path to a `tool-search.json` (JSON5; relative to `cwd`), or a config object (validated like a file; its
   * relative paths mean `cwd`). Default: `./tool-search.json` in `cwd` when it exists, else an empty config.
   */
  readonly config?: string | ToolSearchConfig;
  /** Where a relative config path, and a config object's relative paths and plugin modules, resolve from. Default `process.cwd()`. */
  readonly cwd?: string;
  readonly agentId?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly sessionId?: string;
}

export interface RunSearchOptions {
  /** Hits wanted; clamped to the run's `maxSearchLimit`. Default: its `searchDefaultLimit`. */
  readonly limit?: number;
  /** Recorded on the `search` event (telemetry counts searches by origin). Default `'api'`. */
  readonly origin?: CallOrigin;
}

export interface ToolSearchRun {
  readonly run: Run;
  readonly preset: Preset;
  /** The validated config the run was built from. */
  readonly config: ToolSearchConfig;
  /** The `toolSearch` setting for this party (`tools.toolSearch`, then provider and agent overrides). */
  readonly toolSearch: ResolvedToolSearchFor;
  /** Tool ids of the run's effective catalog (policy applied) ranked for `query`, best first, through the run's rerank taps; emits a `search` event. */
  search(query: string, options?: RunSearchOptions): Promise<string[]>;
  /**
   * The tools of exposure `mode` (`direct`, `tools`, `code`, `directory`, …) as a framework adapter hands them to its
   * framework: provider-safe names, JSON Schema, and a `call` routed through the run. Throws `MODE_UNKNOWN`.
   */
  surface(mode: string): Promise<RunSurface>;
  /** Closes the run (the session log is written) and the kernel (MCP servers stop). Idempotent. */
  close(): Promise<void>;
}

export interface RunTool {
  /** Provider-safe (`^[a-zA-Z0-9_-]{1,64}$`), unique in the surface; maps back to the tool through `call`. */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** `control` for a mode's own tools (`tool_search`, `tool_search_code`, …), `tool` for a catalog tool. */
  readonly kind: 'tool' | 'control';
  /** The catalog tool's id and catalog mode (`catalog`: searchable, `direct-only`: always visible); absent for control tools. */
  readonly toolId?: string;
  readonly catalogMode?: CatalogMode;
  /**
   * Runs the call through the run (policy re-check, approvals, loop detection, hooks, telemetry). Resolves with the
   * tool's result (an MCP-style result; `isError` results are the tool's own answer); a call that is blocked, denied,
   * unknown, invalid or fails rejects with a `ToolSearchError` carrying the project's code (`TOOL_CALL_BLOCKED`,
   * `UNKNOWN_TOOL`, `TOOL_ARGUMENTS_INVALID`, …).
   */
  call(args: unknown, options?: { readonly signal?: AbortSignal }): Promise<ToolResult>;
}

export interface RunSurface {
  readonly mode: string;
  readonly tools: readonly RunTool[];
  /** The mode's system text ('' for most modes; the directory lists names here). */
  readonly system: string;
  /** The surface name of a catalog tool id, when the surface offers it. */
  nameOf(toolId: string): string | undefined;
}

export async function openToolSearchRun(options: OpenRunOptions = {}): Promise<ToolSearchRun> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const { config, dir } = await configOf(options.config, cwd);
  const { config: _config, cwd: _cwd, agentId, provider, model, sessionId, ...presetOptions } = options;
  const party = {
    ...(agentId !== undefined ? { agentId } : {}),
    ...(provider !== undefined ? { provider } : {}),
    ...(model !== undefined ? { model } : {}),
  };
  const toolSearch = resolveToolSearchFor(config, party);
  const preset = await createToolSearchKernel(config, { ...presetOptions, baseDir: dir });
  const request: RunRequest = {
    ...party,
    ...(sessionId !== undefined ? { sessionId } : {}),
    // The sandbox the config gives this agent and session (`agents.list[].sandbox.mode`).
    ...sandboxFieldOf(config, { ...party, ...(sessionId !== undefined ? { sessionId } : {}) }),
    searchLimits: { searchDefaultLimit: toolSearch.searchDefaultLimit, maxSearchLimit: toolSearch.maxSearchLimit },
    ...(toolSearch.description !== undefined ? { searchDescription: toolSearch.description } : {}),
  };
  let run: Run;
  try {
    run = await preset.kernel.createRun(request);
  } catch (error) {
    await preset.kernel.close();
    throw error;
  }
  const index = indexForRun(run, {
    searchDefaultLimit: toolSearch.searchDefaultLimit,
    maxSearchLimit: toolSearch.maxSearchLimit,
  });
  let closing: Promise<void> | undefined;
  return {
    run,
    preset,
    config,
    toolSearch,
    async search(query, searchOptions = {}) {
      const limit = Math.min(
        Math.max(1, Math.floor(searchOptions.limit ?? toolSearch.searchDefaultLimit)),
        toolSearch.maxSearchLimit,
      );
      const { result, ranker } = await index.searchRanked(query, { limit });
      const hits = result.hits.map((hit) => hit.id);
      run.emit({
        type: 'search',
        queries: [query],
        hits,
        origin: searchOptions.origin ?? 'api',
        results: [{ query: result.query, hits, weak: result.weak === true || hits.length === 0 }],
        ranker,
      });
      return hits;
    },
    surface: async (mode) => surfaceOf(run, providerExposure(await run.exposure(mode))),
    close: () =>
      (closing ??= (async () => {
        try {
          await run.close();
        } finally {
          await preset.kernel.close();
        }
      })()),
  };
}

async function configOf(
  config: string | ToolSearchConfig | undefined,
  cwd: string,
): Promise<{ config: ToolSearchConfig; dir: string }> {
  if (config === undefined || typeof config === 'string') {
    const loaded = await loadConfig({ cwd, ...(config !== undefined ? { path: config } : {}) });
    return { config: loaded.config, dir: loaded.dir };
  }
  return { config: resolvePaths(validateConfig(config, 'the config object'), cwd), dir: cwd };
}

function surfaceOf(run: Run, exposure: ProviderExposure): RunSurface {
  const byId = new Map<string, string>();
  const tools = exposure.tools.map((view): RunTool => {
    const name = exposure.providerName(view.name);
    const descriptor = view.toolId !== undefined ? run.tool(view.toolId) : undefined;
    if (view.toolId !== undefined && !byId.has(view.toolId)) byId.set(view.toolId, name);
    return Object.freeze({
      name,
      description: view.description,
      inputSchema: view.inputSchema,
      kind: view.kind,
      ...(view.toolId !== undefined ? { toolId: view.toolId } : {}),
      ...(descriptor ? { catalogMode: descriptor.catalogMode } : {}),
      call: async (args: unknown, options: { readonly signal?: AbortSignal } = {}) =>
        resultOf(await exposure.call(name, args, options.signal ? { signal: options.signal } : {})),
    });
  });
  return Object.freeze({
    mode: exposure.mode,
    tools: Object.freeze(tools),
    system: exposure.system,
    nameOf: (toolId: string) => byId.get(toolId),
  });
}

/** An outcome as a framework sees a tool: the result, or a coded error it reports to the model as a failed call. */
function resultOf(outcome: ToolCallOutcome): ToolResult {
  switch (outcome.status) {
    case 'ok':
      return outcome.result;
    case 'blocked':
      throw new ToolSearchError(
        ErrorCode.TOOL_CALL_BLOCKED,
        `the call to ${outcome.toolId} was blocked by ${outcome.by}: ${outcome.reason}`,
        {
          toolId: outcome.toolId,
          details: { by: outcome.by, reason: outcome.reason },
        },
      );
    case 'error':
      throw new ToolSearchError(outcome.error.code, outcome.error.message, { toolId: outcome.toolId });
    case 'pending':
      throw new ToolSearchError(
        ErrorCode.CLIENT_TOOL_NOT_EXECUTABLE,
        `${outcome.toolId} is executed by the client, which this front end cannot hand it to`,
        {
          toolId: outcome.toolId,
        },
      );
  }
}
