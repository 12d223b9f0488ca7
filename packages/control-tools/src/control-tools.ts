/**
 * The three control tools: `tool_search`, `tool_describe`, `tool_call`.
 * Search and describe read the run's index (the effective catalog only);
 * `tool_call` goes through `run.call`, so policy, `beforeToolCall` and argument
 * validation happen in the kernel and their verdicts come back as results.
 * Shared by mode-tools and mode-directory (modes never import each other, so this lives in its own package).
 */
import {
  compileToolSchema,
  deepFreeze,
  ErrorCode,
  ToolSearchError,
  toSchemaIssues,
  withCallStatus,
} from '@tool-search/kernel';
import type {
  ControlContext,
  ExposedTool,
  JsonSchema,
  RunApi,
  RunRequest,
  ToolCallOutcome,
  ToolResult,
} from '@tool-search/kernel';
import { indexForRun, type ToolIndex } from '@tool-search/search';
import { errorResult, okResult, renderDescription, renderSearch } from './results.js';
import { emitSearch, searchLimitsFor } from './search-limits.js';
import { readDescribedSkill, renderSkillText, withSkillKinds } from './skills.js';

export const CONTROL_TOOL_NAMES = Object.freeze({
  search: 'tool_search',
  describe: 'tool_describe',
  call: 'tool_call',
} as const);

/** Most queries one `tool_search` call may carry. */
export const MAX_QUERIES = 10;

export interface ControlToolsConfig {
  readonly searchDefaultLimit: number;
  readonly maxSearchLimit: number;
  /** Told to the model after a describe: how to run the tool in this mode. */
  readonly callHint: string;
  /** The operator's words about the catalog, appended to `tool_search`'s description (config `tools.toolSearch.description`). */
  readonly description?: string;
}

declare module '@tool-search/kernel' {
  interface RunRequest {
    /** Search limits for this run (an agent's or provider's `toolSearch` override); the mode's own when absent. */
    readonly searchLimits?: { readonly searchDefaultLimit?: number; readonly maxSearchLimit?: number };
    /** The operator's extension of the search tool's description for this run (an agent's `toolSearch.description`); the mode's own when absent. */
    readonly searchDescription?: string;
  }
}

/**
 * The control tools for a run: the mode's own, or a set built for the run's
 * `searchLimits` (cached per distinct limits, so every run with the same
 * limits shares the same frozen objects and renders byte-identically).
 */
export function controlToolsFor(config: ControlToolsConfig): (request: RunRequest) => ExposedTool[] {
  const base = createControlTools(config);
  const bySetting = new Map<string, ExposedTool[]>();
  return (request) => {
    const { maxSearchLimit: max, searchDefaultLimit } = searchLimitsFor(config, request);
    const description = typeof request.searchDescription === 'string' ? request.searchDescription : config.description;
    if (
      max === config.maxSearchLimit &&
      searchDefaultLimit === config.searchDefaultLimit &&
      description === config.description
    )
      return base;
    const key = JSON.stringify([searchDefaultLimit, max, description ?? null]);
    let tools = bySetting.get(key);
    if (!tools) {
      // Bounded: per-run descriptions come from config, but a caller could pass a new one on every run.
      if (bySetting.size >= 64) bySetting.clear();
      bySetting.set(
        key,
        (tools = createControlTools({
          ...config,
          searchDefaultLimit,
          maxSearchLimit: max,
          ...(description !== undefined ? { description } : {}),
        })),
      );
    }
    return tools;
  };
}

/**
 * A search tool's description with the operator's extension after a blank
 * line (trimmed; blank adds nothing). Shared by every mode so the model reads
 * the same words whichever search tool it is shown.
 */
export function extendDescription(base: string, extension: string | undefined): string {
  const extra = extension?.trim();
  return extra ? `${base}\n\n${extra}` : base;
}

export function createControlTools(config: ControlToolsConfig): ExposedTool[] {
  const index = (run: RunApi): ToolIndex =>
    indexForRun(run, {
      searchDefaultLimit: config.searchDefaultLimit,
      maxSearchLimit: config.maxSearchLimit,
      maxBatchQueries: MAX_QUERIES,
    });
  const searchInput = searchSchema(config.maxSearchLimit);
  // Frozen: every exposure shares these objects, and the same catalog must render byte-identically.
  return deepFreeze([
    {
      name: CONTROL_TOOL_NAMES.search,
      description: extendDescription(
        "Find tools by what they do. Give `query` (a few words, or a tool's name) or `queries` (several needs at once; with `fuse: true`, several phrasings of one need, ranked as one list). `select:name1,name2` returns exactly those tools. Returns tool ids with a short summary and argument signature.",
        config.description,
      ),
      inputSchema: searchInput,
      handler: guarded(searchInput, (args, ctx) => search(index(ctx.run), args, ctx, config)),
    },
    {
      name: CONTROL_TOOL_NAMES.describe,
      description: "Get a tool's full description and exact input schema by its id (from tool_search) or its name.",
      inputSchema: DESCRIBE_SCHEMA,
      handler: guarded(DESCRIBE_SCHEMA, (args, ctx) => describe(index(ctx.run), String(args.id), ctx, config.callHint)),
    },
    {
      name: CONTROL_TOOL_NAMES.call,
      description:
        'Run a tool found with tool_search: `id` is its id, `args` its arguments as an object matching its input schema.',
      inputSchema: CALL_SCHEMA,
      handler: guarded(CALL_SCHEMA, (args, ctx) => callTool(String(args.id), args.args ?? {}, ctx)),
    },
  ]);
}

function searchSchema(maxLimit: number): JsonSchema {
  return {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: 'What the tool should do, in a few words.' },
      queries: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        minItems: 1,
        maxItems: MAX_QUERIES,
        description: 'Several searches in one call.',
      },
      limit: { type: 'integer', minimum: 1, maximum: maxLimit, description: `Hits per query (at most ${maxLimit}).` },
      fuse: {
        type: 'boolean',
        description:
          'With `queries`: they are alternative phrasings of one need; return one ranked list fused from all of them.',
      },
    },
    additionalProperties: false,
  };
}

const DESCRIBE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', minLength: 1, description: 'The tool id (e.g. "mcp:github:create_issue") or its name.' },
  },
  required: ['id'],
  additionalProperties: false,
};

const CALL_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', minLength: 1, description: 'The tool id from tool_search.' },
    args: { type: 'object', description: "The tool's arguments, matching its input schema." },
  },
  required: ['id'],
  additionalProperties: false,
};

type Handler = (args: Record<string, unknown>, ctx: ControlContext) => Promise<ToolResult> | ToolResult;

/** Validates the control tool's own arguments; a mismatch is a result the model can fix, not a throw. */
function guarded(
  schema: JsonSchema,
  handler: Handler,
): (args: Record<string, unknown>, ctx: ControlContext) => Promise<ToolResult> {
  return async (raw, ctx) => {
    const args = withParsedArgs(raw);
    const validate = compileToolSchema(schema);
    if (typeof validate === 'function' && !validate(args)) {
      const issues = toSchemaIssues(validate.errors);
      const first = issues[0];
      return errorResult(
        ErrorCode.TOOL_ARGUMENTS_INVALID,
        `invalid arguments: ${first ? `${first.path} ${first.message}` : 'schema mismatch'}`,
        { errors: issues },
      );
    }
    return handler(args, ctx);
  };
}

/** Models often send `args` as a JSON string; accept it when it parses to an object. */
function withParsedArgs(args: Record<string, unknown>): Record<string, unknown> {
  if (typeof args.args !== 'string') return args;
  try {
    const parsed: unknown = JSON.parse(args.args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? { ...args, args: parsed } : args;
  } catch {
    return args;
  }
}

async function search(
  index: ToolIndex,
  args: Record<string, unknown>,
  ctx: ControlContext,
  config: ControlToolsConfig,
): Promise<ToolResult> {
  const queries = [
    ...(typeof args.query === 'string' ? [args.query] : []),
    ...((args.queries as string[] | undefined) ?? []),
  ];
  if (queries.length === 0) {
    return errorResult(ErrorCode.TOOL_ARGUMENTS_INVALID, 'give `query` (a string) or `queries` (an array of strings)', {
      errors: [{ path: '/query', rule: 'required', message: 'query or queries is required' }],
    });
  }
  const limit = Math.min(
    typeof args.limit === 'number' ? args.limit : config.searchDefaultLimit,
    config.maxSearchLimit,
  );
  // Through the run's rerank hooks (hybrid ranking when an embedder plugin is there; lexical otherwise).
  const started = performance.now();
  const { result, ranker } =
    args.fuse === true && queries.length > 1
      ? await index.searchRanked(queries.slice(0, MAX_QUERIES), { limit, fuse: true })
      : await index.searchRanked(queries.length === 1 ? queries[0]! : queries.slice(0, MAX_QUERIES), { limit });
  emitSearch(ctx.run, queries, { result, ranker }, 'tool_call', performance.now() - started);
  return okResult(renderSearch(result), withSkillKinds(result));
}

async function describe(
  index: ToolIndex,
  requested: string,
  ctx: ControlContext,
  callHint: string,
): Promise<ToolResult> {
  const description = index.describe(requested);
  ctx.run.emit({ type: 'describe', toolId: description?.id ?? null, requested, origin: 'tool_call' });
  if (!description) return unknownTool(requested, index.suggest(requested));
  // Plugin guidance ("skills") reaches the model for a tool once it is described.
  const guidance = ctx.run.guidanceFor([description.id], 1500);
  // An MCP server's skill (SEP-2640) is described with its SKILL.md: what the model describes it for.
  const skill = await readDescribedSkill(ctx.run, description, 'tool_call', ctx.signal);
  const text = [renderDescription(description, callHint), skill && renderSkillText(skill), guidance];
  return okResult(text.filter(Boolean).join('\n\n'), {
    ...description,
    ...(skill?.text !== undefined ? { kind: 'skill', skill: skill.text } : {}),
    ...(skill?.error ? { kind: 'skill', skillError: skill.error } : {}),
    ...(guidance ? { guidance } : {}),
  });
}

/**
 * A client tool is called like any other: the kernel hands the call to the run's owner (the gateway gives it to
 * its client) and the client's answer is the result. A call that failed or was blocked carries that status
 * (`withCallStatus`), so the exposure reports it at the top level.
 */
async function callTool(id: string, args: unknown, ctx: ControlContext): Promise<ToolResult> {
  let outcome: ToolCallOutcome;
  try {
    outcome = await ctx.run.call(id, args, { origin: 'tool_call', signal: ctx.signal });
  } catch (error) {
    if (
      !ToolSearchError.isInstance(error) ||
      error.code === ErrorCode.RUN_CLOSED ||
      error.code === ErrorCode.RUN_STOPPED
    )
      throw error;
    const toolId = error.toolId ?? id;
    const result =
      error.code === ErrorCode.UNKNOWN_TOOL
        ? unknownTool(id, (error.details?.suggestions as string[] | undefined) ?? [])
        : errorResult(error.code, error.message, {
            ...(error.toolId ? { toolId: error.toolId } : {}),
            ...(error.details ?? {}),
          });
    return withCallStatus(result, { status: 'error', toolId, error: { code: error.code, message: error.message } });
  }
  return fromOutcome(outcome);
}

function fromOutcome(outcome: ToolCallOutcome): ToolResult {
  switch (outcome.status) {
    case 'ok':
      return outcome.result;
    case 'blocked': {
      const result = errorResult(
        ErrorCode.TOOL_CALL_BLOCKED,
        `the call to ${outcome.toolId} was blocked by ${outcome.by}: ${outcome.reason}`,
        {
          toolId: outcome.toolId,
          by: outcome.by,
          reason: outcome.reason,
        },
      );
      return withCallStatus(result, {
        status: 'blocked',
        toolId: outcome.toolId,
        reason: outcome.reason,
        by: outcome.by,
      });
    }
    case 'pending': {
      // Not reached for tool_call (the kernel hands client calls off or refuses them); kept for a custom kernel.
      const result = clientTool(outcome.toolId, outcome.name);
      return withCallStatus(result, {
        status: 'error',
        toolId: outcome.toolId,
        error: { code: ErrorCode.CLIENT_TOOL_NOT_EXECUTABLE, message: 'executed by the client' },
      });
    }
    case 'error':
      return withCallStatus(errorResult(outcome.error.code, outcome.error.message, { toolId: outcome.toolId }), {
        status: 'error',
        toolId: outcome.toolId,
        error: outcome.error,
      });
  }
}

function clientTool(toolId: string, name: string): ToolResult {
  return errorResult(
    ErrorCode.CLIENT_TOOL_NOT_EXECUTABLE,
    `${toolId} is executed by the client and cannot run through tool_call; call the tool "${name}" directly instead`,
    { toolId, name },
  );
}

function unknownTool(requested: string, suggestions: readonly string[]): ToolResult {
  const hint = suggestions.length ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
  return errorResult(ErrorCode.UNKNOWN_TOOL, `unknown tool id "${requested}"${hint} Use tool_search to find tools.`, {
    requested,
    suggestions,
  });
}
