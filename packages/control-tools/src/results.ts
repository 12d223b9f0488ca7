/**
 * Tool results of the control tools: JSON in `structuredContent`, a compact
 * text rendering in `content` (many clients show only the text).
 */
import type { ErrorCode, ToolResult } from '@tool-search/kernel';
import type { BatchSearchResult, SearchHit, SearchResult, ToolDescription } from '@tool-search/search';

export function okResult(text: string, structured: unknown): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** A failure the model should read and act on; `code` is also in `structuredContent.error`. */
export function errorResult(code: ErrorCode, message: string, details: Record<string, unknown> = {}): ToolResult {
  return {
    content: [{ type: 'text', text: `Error ${code}: ${message}` }],
    structuredContent: { error: { code, message, ...details } },
    isError: true,
  };
}

export function renderSearch(result: SearchResult | BatchSearchResult): string {
  if ('results' in result) return result.results.map((entry) => renderOne(entry, true)).join('\n\n');
  return renderOne(result, false);
}

function renderOne(result: SearchResult, withHeader: boolean): string {
  const header = withHeader ? [`Results for "${result.query}":`] : [];
  if (result.hits.length === 0) return [...header, `No tools matched "${result.query}". Try other words.`].join('\n');
  const lines = result.hits.map(renderHit);
  if (result.truncated) lines.push('(more tools matched: narrow the query or raise limit)');
  return [...header, ...lines].join('\n');
}

function renderHit(hit: SearchHit): string {
  return `- ${hit.id} (${hit.input}) ${hit.summary}`.trimEnd();
}

export function renderDescription(description: ToolDescription, callHint: string): string {
  return [
    `${description.id} (name ${description.name}, source ${description.source}, owner ${description.owner})`,
    description.description,
    `Input schema: ${JSON.stringify(description.inputSchema)}`,
    callHint,
  ]
    .filter(Boolean)
    .join('\n');
}
