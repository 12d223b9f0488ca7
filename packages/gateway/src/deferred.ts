/**
 * Anthropic's deferred tool loading at the gateway. A client (Claude Code and
 * the like) sends tools with `defer_loading: true` plus a tool-search server
 * tool. With an upstream that supports them (`capabilities.ts`), they pass
 * through. With one that does not (an OpenAI-compatible model, an older
 * Claude), the gateway serves the search: the model gets a function named
 * like the server tool, Tool Search's ranker (bm25) or a regex runs over the
 * deferred tools, the result is a `tool_search_tool_search_result` with
 * `tool_reference` blocks, and the found tools' definitions are appended to
 * the tools of the next request, so every earlier request's tools and
 * messages stay a byte prefix of the next one's. A client may instead search
 * with its own custom tool (Anthropic's "custom tool search"): its
 * `tool_result` holds `tool_reference` blocks, which load the named deferred
 * tools the same way — passed through as blocks, or appended by the gateway.
 */
import { runInNewContext } from 'node:vm';
import type { ToolDescriptor } from '@tool-search/kernel';
import { createToolIndex } from '@tool-search/search';
import type { ClientFunctionTool } from './turn.js';
import type { UpstreamKind } from './upstream.js';

/** Anthropic's tool-search server tool types and the name each is called by. */
export const SEARCH_TOOL_TYPES: Readonly<
  Record<string, { readonly name: string; readonly variant: 'bm25' | 'regex' }>
> = {
  tool_search_tool_bm25_20251119: { name: 'tool_search_tool_bm25', variant: 'bm25' },
  tool_search_tool_regex_20251119: { name: 'tool_search_tool_regex', variant: 'regex' },
};

export interface DeferredTools {
  /**
   * The client's search server tool as sent (`{ type, name }`), passed through as is; absent when the client
   * searches with its own custom tool (a client tool whose `tool_result` holds `tool_reference` blocks).
   */
  readonly searchTool?: { readonly type: string; readonly name: string; readonly [key: string]: unknown };
  readonly variant?: 'bm25' | 'regex';
  /** The client's deferred tools (as function tools) and their definitions as sent (for pass-through). */
  readonly tools: readonly ClientFunctionTool[];
  readonly raw: readonly Record<string, unknown>[];
  /** Tools `tool_reference` blocks in the history already loaded, in order. */
  readonly loaded: readonly string[];
  /** The client's custom search results in the history: `tool_use_id` → the tools its `tool_reference` blocks name. */
  readonly references?: ReadonlyMap<string, readonly string[]>;
  /** The API the client spoke: only Anthropic's own shapes can pass through to an Anthropic upstream. Default `anthropic`. */
  readonly origin?: 'anthropic' | 'responses';
}

/** Which path a turn with deferred tools took (in `tool_search.deferral` and the ledger event). */
export interface DeferralReport {
  /** `pass-through`: the upstream searched and loaded; `served`: the gateway did (capabilities.ts). */
  readonly path: 'pass-through' | 'served';
  readonly searches: number;
  readonly loaded: readonly string[];
}

const MAX_REFERENCES = 5;
/** A pattern comes from the model: a catastrophic one (`(a+)+$`) is stopped after this long instead of blocking the server. */
const REGEX_BUDGET_MS = 1_000;

/** A search's result as Anthropic returns it in `tool_search_tool_result.content`. */
export function searchDeferred(deferred: DeferredTools, input: unknown): object {
  const query = typeof (input as { query?: unknown })?.query === 'string' ? (input as { query: string }).query : '';
  if (!query) return { type: 'tool_search_tool_result_error', error_code: 'invalid_pattern' };
  if (deferred.variant === 'regex') {
    if (query.length > 200) return { type: 'tool_search_tool_result_error', error_code: 'pattern_too_long' };
    const matched = regexMatches(query, deferred.tools.map(searchText));
    if (!matched) return { type: 'tool_search_tool_result_error', error_code: 'invalid_pattern' };
    return references(matched.slice(0, MAX_REFERENCES).map((i) => deferred.tools[i]!.function.name));
  }
  const index = createToolIndex(deferred.tools.map(descriptor), { searchDefaultLimit: MAX_REFERENCES });
  const hits = index.search(query).hits;
  const strong = hits.filter((hit) => !(hit as { weak?: boolean }).weak);
  return references((strong.length ? strong : hits).slice(0, MAX_REFERENCES).map((hit) => hit.name));
}

/** Tool names the `tool_reference` blocks of a custom search tool's `tool_result` content name (none for text). */
export function referenceBlockNames(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) =>
    block?.type === 'tool_reference' && typeof block.tool_name === 'string' ? [block.tool_name as string] : [],
  );
}

/** Tool names a search result loaded. */
export function referencedNames(content: unknown): string[] {
  const refs = (content as { tool_references?: unknown })?.tool_references;
  return Array.isArray(refs)
    ? refs.flatMap((ref) => (typeof ref?.tool_name === 'string' ? [ref.tool_name as string] : []))
    : [];
}

/** The function the model calls to search, in the upstream's format. */
export function searchFunction(deferred: DeferredTools & { readonly searchTool: object }): ClientFunctionTool {
  const how =
    deferred.variant === 'regex' ? 'a regular expression (case-insensitive) over' : 'keywords matched against';
  return {
    type: 'function',
    function: {
      name: (deferred.searchTool as { name: string }).name,
      description: `Search the ${deferred.tools.length} deferred tools with ${how} their names, descriptions and parameters. Found tools become callable.`,
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
  };
}

/** One tool definition in the upstream's wire format (stable key order, so the bytes repeat). */
export function toolJson(kind: UpstreamKind, tool: ClientFunctionTool): string {
  const { name, description, parameters } = tool.function;
  const schema = parameters ?? { type: 'object' };
  if (kind === 'anthropic')
    return JSON.stringify({ name, ...(description ? { description } : {}), input_schema: schema });
  return JSON.stringify({
    type: 'function',
    function: { name, ...(description ? { description } : {}), parameters: schema },
  });
}

/** `base` (a JSON array) with `extra` definitions appended: the earlier text stays a byte prefix. */
export function appendTools(base: string, extra: readonly string[]): string {
  if (!extra.length) return base;
  const head = base.slice(0, -1);
  return `${head}${head === '[' ? '' : ','}${extra.join(',')}]`;
}

/** Indexes of the texts the pattern matches, or undefined for a pattern that is invalid or runs out of time. */
function regexMatches(pattern: string, texts: readonly string[]): number[] | undefined {
  try {
    const found: unknown = runInNewContext(
      'const re = new RegExp(pattern, "i"); const out = []; for (let i = 0; i < texts.length; i++) if (re.test(texts[i])) out.push(i); out',
      { pattern, texts: [...texts] },
      { timeout: REGEX_BUDGET_MS },
    );
    return Array.isArray(found) ? found.filter((i): i is number => typeof i === 'number') : undefined;
  } catch {
    return undefined;
  }
}

export function references(names: readonly string[]): object {
  return {
    type: 'tool_search_tool_search_result',
    tool_references: names.map((tool_name) => ({ type: 'tool_reference', tool_name })),
  };
}

function searchText(tool: ClientFunctionTool): string {
  const properties = (tool.function.parameters?.properties ?? {}) as Record<string, { description?: unknown }>;
  const params = Object.entries(properties).map(
    ([key, value]) => `${key} ${typeof value?.description === 'string' ? value.description : ''}`,
  );
  return [tool.function.name, tool.function.description ?? '', ...params].join('\n');
}

function descriptor(tool: ClientFunctionTool): ToolDescriptor {
  return {
    id: `client:client:${tool.function.name}`,
    name: tool.function.name,
    source: 'client',
    owner: 'client',
    description: tool.function.description ?? '',
    inputSchema: (tool.function.parameters ?? { type: 'object' }) as ToolDescriptor['inputSchema'],
    catalogMode: 'catalog',
  };
}
