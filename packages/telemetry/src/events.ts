/**
 * The `provider-request` run event: the gateway emits it with the exact JSON
 * it sends to the provider, so telemetry counts bytes and tokens of what the
 * model really saw. Declared in this package (`types.ts`) by declaration merging; this alias names it.
 */
import type { RunEventMap } from '@tool-search/kernel';
import './types.js';

export type ProviderRequestEvent = RunEventMap['provider-request'];

/**
 * Builds the event from a body, measuring the parts the same way telemetry
 * reads them (`tools` as `JSON.stringify`, system text of `system`/`developer`
 * messages or Anthropic's `system`). For a gateway that has no exact numbers of its own.
 */
export function providerRequestEvent(mode: string, body: string): ProviderRequestEvent {
  const parts = requestParts(body);
  return {
    type: 'provider-request',
    mode,
    body,
    toolsBytes: Buffer.byteLength(parts.tools),
    systemBytes: Buffer.byteLength(parts.system),
    requestBytes: Buffer.byteLength(body),
    toolNames: parts.toolNames,
  };
}

export interface RequestParts {
  /** The tools as serialized JSON ('' when none). */
  readonly tools: string;
  /** The system prompt text ('' when none). */
  readonly system: string;
  /** The names of the tools offered, as the provider saw them. */
  readonly toolNames: readonly string[];
}

/** Splits an OpenAI or Anthropic request body into tools and system text. */
export function requestParts(body: string): RequestParts {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { tools: '', system: '', toolNames: [] };
  }
  if (!isRecord(parsed)) return { tools: '', system: '', toolNames: [] };
  const tools = Array.isArray(parsed.tools) ? parsed.tools : [];
  return {
    tools: tools.length ? JSON.stringify(tools) : '',
    system: systemText(parsed),
    toolNames: tools.map(toolName).filter((name): name is string => name !== undefined),
  };
}

function toolName(tool: unknown): string | undefined {
  if (!isRecord(tool)) return undefined;
  if (isRecord(tool.function) && typeof tool.function.name === 'string') return tool.function.name;
  return typeof tool.name === 'string' ? tool.name : undefined;
}

function systemText(body: Record<string, unknown>): string {
  const texts: string[] = [];
  if (body.system !== undefined) texts.push(contentText(body.system));
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (isRecord(message) && (message.role === 'system' || message.role === 'developer'))
        texts.push(contentText(message.content));
    }
  }
  return texts.filter(Boolean).join('\n');
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
