/** Turns a call outcome into the text of a `tool` message for the model. */
import type { ToolCallOutcome, ToolResult } from '@tool-search/kernel';

export function renderOutcome(outcome: ToolCallOutcome): string {
  switch (outcome.status) {
    case 'ok':
      return renderResult(outcome.result);
    case 'blocked':
      return `Blocked (${outcome.by}): ${outcome.reason}`;
    case 'error':
      return `Error ${outcome.error.code}: ${outcome.error.message}`;
    case 'pending':
      return `The client must run ${outcome.name}.`;
  }
}

export function renderResult(result: ToolResult): string {
  const text = result.content
    .map((part) => (part.type === 'text' ? part.text : part.type === 'resource' ? (part.resource.text ?? part.resource.uri) : `[${part.type}]`))
    .join('\n');
  const body = text || (result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '');
  return result.isError ? `Error: ${body}` : body;
}
