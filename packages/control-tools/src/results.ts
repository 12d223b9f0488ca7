/**
 * Tool results of the control tools: JSON in `structuredContent`, a compact
 * text rendering in `content` (many clients show only the text).
 */
import type { AnyErrorCode, ToolResult } from '@tool-search/kernel';
import type {
  BatchSearchResult,
  SearchHit,
  SearchResult,
  ToolDescription,
  UnavailableSource,
} from '@tool-search/search';

export function okResult(text: string, structured: unknown): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** A failure the model should read and act on; `code` is also in `structuredContent.error`. */
export function errorResult(code: AnyErrorCode, message: string, details: Record<string, unknown> = {}): ToolResult {
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
  const reasons = result.unavailable?.length ? [renderUnavailable(result.unavailable)] : [];
  if (result.hits.length === 0)
    return [...header, `No tools matched "${result.query}". Try other words.`, ...reasons].join('\n');
  const weak = result.weak ? [`No tool matched "${result.query}" well; the closest partial matches (weak):`] : [];
  const lines = result.hits.map((hit) => renderHit(hit, !result.weak));
  if (result.truncated) lines.push('(more tools matched: narrow the query or raise limit)');
  return [...header, ...weak, ...lines, ...reasons].join('\n');
}

function renderHit(hit: SearchHit, markWeak: boolean): string {
  return `- ${hit.id} (${hit.input}) ${hit.summary}${markWeak && hit.weak ? ' [weak match]' : ''}`.trimEnd();
}

const STATE_TEXT: Readonly<Record<UnavailableSource['state'], string>> = {
  failed: 'failed to start',
  timeout: 'did not answer in time',
  unreachable: 'is unreachable',
};

/** Names sources that failed to list: the tool the user means may be theirs. */
function renderUnavailable(sources: readonly UnavailableSource[]): string {
  const named = sources.map((source) => `"${source.name}" ${STATE_TEXT[source.state]} (${source.code})`);
  return `Not searchable in this run: ${named.join('; ')}; tools of these sources are missing from these results.`;
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
