/** Turns a call outcome into the text of a `tool` message for the model. */
import { toolResultText, type ToolCallOutcome, type ToolResult } from '@tool-search/kernel';

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
  const body = toolResultText(result);
  return result.isError ? `Error: ${body}` : body;
}
