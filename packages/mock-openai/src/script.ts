/**
 * Parses the scenario out of a user message:
 * `tool search qa check target=fake_plugin_tool_0017 args={"q":"x"} loop=3`.
 * `args=` takes a JSON object (spaces allowed, braces balanced); `loop=` a count; `query=` a JSON string to
 * search with (default: the target's name); `searchTool=` the name of a client's own search tool (Anthropic's custom
 * tool search: its `tool_result` holds `tool_reference` blocks) the model loads the target with; `early=1` makes the model call the target by name before it is loaded.
 */
import type { ChatMessage, Script } from './types.js';

const TRIGGER = /tool search qa check/i;
const TARGET = /\btarget=([^\s]+)/;
const LOOP = /\bloop=(\d+)/;
/** `query="…"`: a JSON string the model searches with instead of the target's name. */
const QUERY = /\bquery=("(?:[^"\\]|\\.)*")/;
const SEARCH_TOOL = /\bsearchTool=([A-Za-z0-9_-]{1,128})/;
/** `argsText="…"`: a JSON string whose value is the target call's exact `arguments` text. */
const ARGS_TEXT = /\bargsText=("(?:[^"\\]|\\.)*")/;
const EARLY = /\bearly=1\b/;
const MAX_LOOP = 1000;

export function parseScript(text: string): Script | undefined {
  if (!TRIGGER.test(text)) return undefined;
  const target = TARGET.exec(text)?.[1];
  if (!target) return undefined;
  const loop = Math.min(Math.max(Number(LOOP.exec(text)?.[1] ?? 1), 1), MAX_LOOP);
  const query = parseQuery(text);
  const searchTool = SEARCH_TOOL.exec(text)?.[1];
  const argumentsText = parseArgumentsText(text);
  return {
    target,
    args: parseArgs(text),
    loop,
    ...(query ? { query } : {}),
    ...(searchTool ? { searchTool } : {}),
    ...(argumentsText !== undefined ? { argumentsText } : {}),
    ...(EARLY.test(text) ? { early: true } : {}),
  };
}

/** The text of a message's content, whether a string or text parts. */
export function textOf(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}

function parseQuery(text: string): string | undefined {
  const literal = QUERY.exec(text)?.[1];
  if (!literal) return undefined;
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === 'string' && value.trim() ? value : undefined;
  } catch {
    return undefined;
  }
}

function parseArgumentsText(text: string): string | undefined {
  const literal = ARGS_TEXT.exec(text)?.[1];
  if (!literal) return undefined;
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function parseArgs(text: string): Record<string, unknown> {
  const start = text.indexOf('args={');
  if (start < 0) return {};
  const json = balancedJson(text, start + 'args='.length);
  if (!json) return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The `{...}` (or `open`…`close`) starting at `from`, respecting strings, or undefined when unbalanced. */
export function balancedJson(text: string, from: number, open = '{', close = '}'): string | undefined {
  if (from < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === open) depth++;
    else if (ch === close && --depth === 0) return text.slice(from, i + 1);
  }
  return undefined;
}
