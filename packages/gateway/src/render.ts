/** Turns a call outcome into the text of a `tool` message for the model. */
import type { ToolCallOutcome, ToolResult } from '@tool-search/kernel';
import { toolResultText } from '@tool-search/provider-formats';

export function renderOutcome(outcome: ToolCallOutcome): string {
  switch (outcome.status) {
    case 'ok':
      return renderResult(outcome.result);
    // A control tool (tool_call) that reports its inner call's failure wrote the text the model should read.
    case 'blocked':
      return outcome.result ? toolResultText(outcome.result) : `Blocked (${outcome.by}): ${outcome.reason}`;
    case 'error':
      return outcome.result ? toolResultText(outcome.result) : `Error ${outcome.error.code}: ${outcome.error.message}`;
    case 'pending':
      return `The client must run ${outcome.name}.`;
  }
}

export function renderResult(result: ToolResult): string {
  const body = toolResultText(result);
  return result.isError ? `Error: ${body}` : body;
}
