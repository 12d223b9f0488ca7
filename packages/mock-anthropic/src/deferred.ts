/**
 * Anthropic's deferred tool loading, as the mock serves it: tools with
 * `defer_loading: true` stay out of the model's view until a tool-search
 * server tool (`tool_search_tool_bm25_20251119` / `tool_search_tool_regex_20251119`)
 * or a `tool_reference` in a `tool_result` (a custom search tool) names them.
 * The search runs server-side, as on the real API: its `server_tool_use` and
 * `tool_search_tool_result` blocks lead the answer, then the model goes on.
 */
import type { AnthropicTool, ContentBlock, MessagesRequest } from './types.js';

export const SEARCH_TOOL_TYPES: Readonly<Record<string, 'bm25' | 'regex'>> = {
  tool_search_tool_bm25_20251119: 'bm25',
  tool_search_tool_regex_20251119: 'regex',
};

export interface SearchTool {
  readonly name: string;
  readonly variant: 'bm25' | 'regex';
}

/** The request's tool-search server tool, if any. */
export function searchToolOf(request: MessagesRequest): SearchTool | undefined {
  for (const tool of request.tools ?? []) {
    const variant = typeof tool.type === 'string' ? SEARCH_TOOL_TYPES[tool.type] : undefined;
    if (variant) return { name: tool.name, variant };
  }
  return undefined;
}

export const isDeferred = (tool: AnthropicTool): boolean => tool.defer_loading === true;
export const isServerTool = (tool: AnthropicTool): boolean => typeof tool.type === 'string' && tool.type !== 'custom';

/** Names that `tool_reference` blocks in the history loaded, in order of first mention. */
export function loadedNames(request: MessagesRequest): string[] {
  const names: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const record = value as { type?: unknown; tool_name?: unknown; content?: unknown; tool_references?: unknown };
    if (record.type === 'tool_reference' && typeof record.tool_name === 'string' && !names.includes(record.tool_name))
      names.push(record.tool_name);
    visit(record.content);
    visit(record.tool_references);
  };
  for (const message of request.messages) if (typeof message.content !== 'string') visit(message.content);
  return names;
}

/** What the server-side search finds among the deferred tools (at most 5), or an error code. */
export function searchDeferred(
  tools: readonly AnthropicTool[],
  tool: SearchTool,
  query: string,
): { names: string[] } | { error: string } {
  const deferred = tools.filter(isDeferred);
  const text = (t: AnthropicTool) =>
    `${t.name} ${t.description ?? ''} ${Object.keys((t.input_schema?.properties as object | undefined) ?? {}).join(' ')}`;
  if (tool.variant === 'regex') {
    let pattern: RegExp;
    try {
      if (query.length > 200) return { error: 'pattern_too_long' };
      pattern = new RegExp(query, 'i');
    } catch {
      return { error: 'invalid_pattern' };
    }
    return {
      names: deferred
        .filter((t) => pattern.test(text(t)))
        .slice(0, 5)
        .map((t) => t.name),
    };
  }
  const terms = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const scored = deferred
    .map((t) => {
      const hay = text(t).toLowerCase();
      return {
        name: t.name,
        score:
          (t.name.toLowerCase() === query.toLowerCase() ? 100 : 0) + terms.filter((term) => hay.includes(term)).length,
      };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);
  return { names: scored.slice(0, 5).map((s) => s.name) };
}

/** The two blocks the API returns for one server-side search. */
export function searchBlocks(
  id: string,
  tool: SearchTool,
  query: string,
  found: { names: string[] } | { error: string },
): ContentBlock[] {
  const content =
    'error' in found
      ? { type: 'tool_search_tool_result_error', error_code: found.error }
      : {
          type: 'tool_search_tool_search_result',
          tool_references: found.names.map((tool_name) => ({ type: 'tool_reference', tool_name })),
        };
  return [
    { type: 'server_tool_use', id, name: tool.name, input: { query } },
    { type: 'tool_search_tool_result', tool_use_id: id, content },
  ];
}
