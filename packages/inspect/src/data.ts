/**
 * What the page shows, read through the same APIs as the CLI's `tools list`,
 * `tools explain`, `tools search` and `exposure`: one kernel built by the
 * preset from the config, one short-lived run per question, always closed.
 */
import {
  ErrorCode,
  ToolSearchError,
  type Diagnostic,
  type Kernel,
  type Run,
  type ToolDescriptor,
  errorMessage,
} from '@tool-search/kernel';
import { COMPARED_MODES, NATIVE_MODE, resolveToolSearchFor, type ToolSearchConfig } from '@tool-search/config';
import { indexForRun, type SearchResult } from '@tool-search/search';
import { createTokenCounter } from '@tool-search/telemetry';
import { providerExposure } from '@tool-search/provider-formats';
// Declares RunRequest.searchLimits (the limits the modes' search tools read), as the CLI passes them.
import type {} from '@tool-search/control-tools';
import { InspectErrors } from './errors.js';
import { scoreParts } from './score-parts.js';
import type {
  CatalogRow,
  CatalogView,
  ExposureModeView,
  ExposureView,
  InspectRequest,
  MetaView,
  SearchView,
  SourceProblem,
  ToolView,
} from './types.js';

/** The exposure modes the page compares. */
export const INSPECT_MODES = COMPARED_MODES;
/** Compared too once a plugin materializes them (the kernel answers MODE_UNKNOWN until then). */
export const OPTIONAL_MODES = Object.freeze([NATIVE_MODE] as const);

export interface InspectDataOptions {
  /** The kernel the preset built from `config` (`createToolSearchKernel`). */
  readonly kernel: Kernel;
  readonly config: ToolSearchConfig;
  /** Only the demo catalog is configured (the preset's `demoCatalog`). */
  readonly demoCatalog?: boolean;
  /** Modes to compare; default `INSPECT_MODES`. */
  readonly modes?: readonly string[];
  /** Modes compared only when a plugin materializes them; default `OPTIONAL_MODES`. */
  readonly optionalModes?: readonly string[];
  /** Count o200k_base tokens of each exposure (default true). */
  readonly countTokens?: boolean;
}

export interface InspectData {
  meta(extra: Pick<MetaView, 'sessions'>): MetaView;
  catalog(request: InspectRequest): Promise<CatalogView>;
  tool(request: InspectRequest, id: string): Promise<ToolView>;
  search(request: InspectRequest, query: string, limit?: number): Promise<SearchView>;
  exposure(request: InspectRequest): Promise<ExposureView>;
}

export function createInspectData(options: InspectDataOptions): InspectData {
  const { kernel, config } = options;
  const modes = options.modes ?? INSPECT_MODES;
  const optional = options.optionalModes ?? OPTIONAL_MODES;
  const tokens = options.countTokens === false ? undefined : createTokenCounter('o200k_base');

  async function withRun<T>(request: InspectRequest, use: (run: Run) => Promise<T> | T): Promise<T> {
    const setting = resolveToolSearchFor(config, request);
    const run = await kernel.createRun({
      ...request,
      searchLimits: { searchDefaultLimit: setting.searchDefaultLimit, maxSearchLimit: setting.maxSearchLimit },
      ...(setting.description !== undefined ? { searchDescription: setting.description } : {}),
    });
    try {
      return await use(run);
    } finally {
      await run.close();
    }
  }

  return {
    meta: ({ sessions }) => ({
      agents: (config.agents?.list ?? []).map((agent) => agent.id),
      providers: Object.keys(config.tools?.byProvider ?? {}),
      modes,
      defaults: {},
      demoCatalog: options.demoCatalog === true,
      sessions,
    }),

    catalog: (request) =>
      withRun(request, (run) => ({
        request,
        mode: resolveToolSearchFor(config, request).mode,
        tools: run.listed.map((tool) => row(run, tool)),
        problems: sourceProblems(run.diagnostics),
        diagnostics: run.diagnostics,
      })),

    tool: (request, id) =>
      withRun(request, (run) => {
        const explain = run.explain(id);
        const tool = explain.toolId !== undefined ? run.listed.find((t) => t.id === explain.toolId) : undefined;
        if (!tool)
          throw new ToolSearchError(InspectErrors.INSPECT_NOT_FOUND, `no source lists a tool "${id}"`, {
            details: { id },
          });
        const { title, description, inputSchema, outputSchema } = tool;
        return {
          tool: {
            ...row(run, tool),
            ...(title !== undefined ? { title } : {}),
            description,
            inputSchema,
            ...(outputSchema !== undefined ? { outputSchema } : {}),
          },
          guidance: run.guidanceFor([tool.id]),
          explain,
        };
      }),

    search: (request, query, limit) =>
      withRun(request, async (run) => {
        const setting = resolveToolSearchFor(config, request);
        const index = indexForRun(run, {
          searchDefaultLimit: setting.searchDefaultLimit,
          maxSearchLimit: setting.maxSearchLimit,
        });
        const { result, ranker } = await index.searchRanked(query, limit !== undefined ? { limit } : {});
        const byId = new Map(run.catalog.map((tool) => [tool.id, tool]));
        const parts = result.hits.map((hit) => scoreParts(result.query, byId.get(hit.id)));
        const demo = result.hits.map((hit) => {
          const tool = byId.get(hit.id);
          return tool !== undefined && isDemoTool(tool);
        });
        return { result, ranker, parts, misses: misses(result, run), demo };
      }),

    exposure: (request) =>
      withRun(request, async (run) => {
        const views: ExposureModeView[] = [];
        for (const mode of modes) views.push(await exposureOf(run, mode, tokens));
        for (const mode of optional) {
          const view = await exposureOf(run, mode, tokens);
          if (view.error?.code !== ErrorCode.MODE_UNKNOWN) views.push(view);
        }
        return { request, applied: resolveToolSearchFor(config, request).mode, modes: views };
      }),
  };
}

function row(run: Run, tool: ToolDescriptor): CatalogRow {
  const allowed = run.tool(tool.id)?.id === tool.id;
  const deniedBy = allowed ? undefined : run.explain(tool.id).steps.find((step) => !step.kept);
  return {
    id: tool.id,
    name: tool.name,
    source: tool.source,
    ...(tool.source === 'mcp' ? { server: tool.owner } : {}),
    owner: tool.owner,
    catalogMode: tool.catalogMode,
    status: allowed ? 'allowed' : 'denied',
    ...(deniedBy ? { deniedBy } : {}),
    ...(isDemoTool(tool) ? { demo: true as const } : {}),
  };
}

/** The fake catalog's mark (`ToolMeta.demo` of `@tool-search/plugin-fake-catalog`, read by name: no plugin import). */
function isDemoTool(tool: ToolDescriptor): boolean {
  return (tool.meta as Readonly<Record<string, unknown>> | undefined)?.['demo'] === true;
}

/** Diagnostics that mean a source did not deliver all of its tools, each with the fix when there is one. */
export function sourceProblems(diagnostics: readonly Diagnostic[]): SourceProblem[] {
  const problems: SourceProblem[] = [];
  for (const d of diagnostics) {
    const server = typeof d.details?.['server'] === 'string' ? (d.details['server'] as string) : undefined;
    const source = server ?? d.plugin ?? 'unknown source';
    const base = { source, code: d.code, level: d.level, message: d.message };
    if (d.code === 'MCP_AUTH_REQUIRED')
      problems.push({ ...base, kind: 'auth-required', fix: `tool-search mcp login ${source}` });
    else if (
      d.code === 'MCP_SERVER_FAILED' ||
      d.code === 'SOURCE_FAILED' ||
      d.code === 'SOURCE_TIMEOUT' ||
      d.code === 'MCP_AUTH_FAILED'
    )
      problems.push({ ...base, kind: 'failed' });
    else if (d.code === 'MCP_LIST_TRUNCATED') problems.push({ ...base, kind: 'truncated' });
    else if (d.level === 'error') problems.push({ ...base, kind: 'other' });
  }
  return problems;
}

function misses(result: SearchResult, run: Run): string[] {
  const reasons: string[] = [];
  if (result.hits.length === 0)
    reasons.push(
      run.catalog.length === 0
        ? 'the catalog of this run is empty'
        : `no tool of this run shares a word with "${result.query}"`,
    );
  else if (result.weak) reasons.push(`no tool matches "${result.query}" well: these are the closest partial matches`);
  for (const source of result.unavailable ?? []) {
    reasons.push(`${source.name} is not searchable in this run (${source.state}, ${source.code})`);
  }
  return reasons;
}

async function exposureOf(
  run: Run,
  mode: string,
  tokens: ReturnType<typeof createTokenCounter> | undefined,
): Promise<ExposureModeView> {
  try {
    const exposure = providerExposure(await run.exposure(mode));
    const toolsJson = JSON.stringify(exposure.toOpenAI());
    const bytes = { tools: Buffer.byteLength(toolsJson), system: Buffer.byteLength(exposure.system) };
    const counted = tokens
      ? { tools: await tokens.count(toolsJson), system: await tokens.count(exposure.system) }
      : undefined;
    return {
      mode,
      answered: exposure.mode,
      tools: exposure.tools.map((tool) => tool.name),
      system: exposure.system,
      bytes: { ...bytes, total: bytes.tools + bytes.system },
      tokens: counted ? { ...counted, total: counted.tools + counted.system } : null,
    };
  } catch (error) {
    const code = ToolSearchError.isInstance(error) ? error.code : 'INTERNAL_ERROR';
    return {
      mode,
      answered: mode,
      tools: [],
      system: '',
      bytes: { tools: 0, system: 0, total: 0 },
      tokens: null,
      error: { code, message: errorMessage(error) },
    };
  }
}
