/**
 * A multi-step script for coding scenarios: the last user message says
 * `tool search qa steps [{"tool":"read","args":{…}}, {"tool":"process","args":{…},"repeat":8}, …]`
 * and the model calls each step's tool directly, in order, one call per
 * response, then answers with the last tool result. `{{sessionId}}` in a
 * string argument becomes the first `sessionId` a tool result reported (so a
 * script can poll the background command it started).
 */
import { balancedJson } from './script.js';
import type { ChatMessage, ChatTool, Step } from './types.js';

const TRIGGER = 'tool search qa steps';
const SESSION_ID = /"sessionId"\s*:\s*"([^"]+)"|session ([0-9a-f-]{36})/;

export interface ScriptStep {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly repeat: number;
}

export function parseSteps(text: string): ScriptStep[] | undefined {
  const at = text.indexOf(TRIGGER);
  if (at < 0) return undefined;
  const json = balancedJson(text, text.indexOf('[', at), '[', ']');
  if (!json) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return undefined;
    return value.flatMap((item: unknown) => {
      const step = item as { tool?: unknown; args?: unknown; repeat?: unknown };
      if (typeof step?.tool !== 'string') return [];
      const args =
        typeof step.args === 'object' && step.args !== null && !Array.isArray(step.args)
          ? (step.args as Record<string, unknown>)
          : {};
      const repeat =
        typeof step.repeat === 'number' && Number.isInteger(step.repeat) ? Math.min(Math.max(step.repeat, 1), 1000) : 1;
      return [{ tool: step.tool, args, repeat }];
    });
  } catch {
    return undefined;
  }
}

/** The next step of a steps script, given the tool results since the user message. */
export function planSteps(
  steps: readonly ScriptStep[],
  tools: readonly ChatTool[],
  results: readonly string[],
  callId: string,
  isNameFor: (offered: string, name: string) => boolean,
): Step {
  const calls = steps.flatMap((step) => Array.from({ length: step.repeat }, () => step));
  const next = calls[results.length];
  if (!next)
    return { kind: 'answer', reason: 'done', text: `Steps done. Last result: ${results[results.length - 1] ?? ''}` };
  const offered = tools.find((tool) => isNameFor(tool.function.name, next.tool));
  if (!offered) return { kind: 'answer', reason: 'unreachable', text: `The tool ${next.tool} is not offered.` };
  const sessionId = results.map((r) => SESSION_ID.exec(r)).find(Boolean);
  const args = fill(next.args, sessionId ? (sessionId[1] ?? sessionId[2])! : '');
  return { kind: 'tool-call', lane: 'direct', name: offered.function.name, args, callId };
}

/** The text of every tool message since the last user message, in order. */
export function toolResultsSince(messages: readonly ChatMessage[], textOf: (m: ChatMessage) => string): string[] {
  return messages.filter((m) => m.role === 'tool').map(textOf);
}

function fill(args: Record<string, unknown>, sessionId: string): Record<string, unknown> {
  return JSON.parse(JSON.stringify(args).replaceAll('{{sessionId}}', sessionId)) as Record<string, unknown>;
}
