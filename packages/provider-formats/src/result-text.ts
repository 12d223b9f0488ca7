/** The text of a tool result, for places that show it as text (a model's tool message, a terminal). */
import type { ToolResult } from '@tool-search/kernel';

/** Text parts joined by newlines (resources by their text or uri, other parts as `[type]`); else the structured content as JSON. */
export function toolResultText(result: ToolResult, options: { indent?: number } = {}): string {
  const text = result.content
    .map((part) =>
      part.type === 'text'
        ? part.text
        : part.type === 'resource'
          ? (part.resource.text ?? part.resource.uri)
          : `[${part.type}]`,
    )
    .join('\n');
  return (
    text ||
    (result.structuredContent !== undefined ? JSON.stringify(result.structuredContent, null, options.indent) : '')
  );
}

/** A result that carries `value` twice: as JSON text for models that read text, and as `structuredContent`. */
export function jsonToolResult(value: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}
