/**
 * One run from a config, for code that embeds Tool Search in someone else's agent loop (the framework adapters):
 * load the config exactly as the CLI does (a path, or an object validated the same way), build the preset, open a
 * run for the party (agent, provider, model) with the `toolSearch` setting that applies to it, and search the run's
 * policy-filtered catalog with the ranker every mode uses, logged like `tool_search`'s searches.
 */
import { resolve } from 'node:path';
import { loadConfig, resolvePaths, resolveToolSearchFor, validateConfig, type ResolvedToolSearchFor, type ToolSearchConfig } from '@tool-search/config';
import type { CallOrigin, Run, RunRequest } from '@tool-search/kernel';
import { indexForRun } from '@tool-search/search';
import { createToolSearchKernel, type Preset, type PresetOptions } from './preset.js';

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
  /** Closes the run (the session log is written) and the kernel (MCP servers stop). Idempotent. */
  close(): Promise<void>;
}

export async function openToolSearchRun(options: OpenRunOptions = {}): Promise<ToolSearchRun> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const { config, dir } = await configOf(options.config, cwd);
  const { config: _config, cwd: _cwd, agentId, provider, model, sessionId, ...presetOptions } = options;
  const party = { ...(agentId !== undefined ? { agentId } : {}), ...(provider !== undefined ? { provider } : {}), ...(model !== undefined ? { model } : {}) };
  const toolSearch = resolveToolSearchFor(config, party);
  const preset = await createToolSearchKernel(config, { ...presetOptions, baseDir: dir });
  const request: RunRequest = {
    ...party,
    ...(sessionId !== undefined ? { sessionId } : {}),
    searchLimits: { searchDefaultLimit: toolSearch.searchDefaultLimit, maxSearchLimit: toolSearch.maxSearchLimit },
  };
  let run: Run;
  try {
    run = await preset.kernel.createRun(request);
  } catch (error) {
    await preset.kernel.close();
    throw error;
  }
  const index = indexForRun(run, { searchDefaultLimit: toolSearch.searchDefaultLimit, maxSearchLimit: toolSearch.maxSearchLimit });
  let closing: Promise<void> | undefined;
  return {
    run,
    preset,
    config,
    toolSearch,
    async search(query, searchOptions = {}) {
      const limit = Math.min(Math.max(1, Math.floor(searchOptions.limit ?? toolSearch.searchDefaultLimit)), toolSearch.maxSearchLimit);
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

async function configOf(config: string | ToolSearchConfig | undefined, cwd: string): Promise<{ config: ToolSearchConfig; dir: string }> {
  if (config === undefined || typeof config === 'string') {
    const loaded = await loadConfig({ cwd, ...(config !== undefined ? { path: config } : {}) });
    return { config: loaded.config, dir: loaded.dir };
  }
  return { config: resolvePaths(validateConfig(config, 'the config object'), cwd), dir: cwd };
}
