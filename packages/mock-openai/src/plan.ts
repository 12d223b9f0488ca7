/**
 * The scripted model: a pure function from a chat request to the next step.
 * It reads the scenario from the last user message, looks at the tools it is
 * offered to pick a lane, and at the tool results since that message to know
 * how far the scenario got. The server only serializes what this returns.
 */
import { parseScript, textOf } from './script.js';
import { parseSteps, planSteps, toolResultsSince } from './steps.js';
import { describeDocuments } from './documents.js';
import { describeImages } from './vision.js';
import type { ChatMessage, ChatRequest, ChatTool, ChatToolCall, Lane, Script, Step } from './types.js';

/** The marker fake tools put in their results; seeing it means the target ran. */
export const OK_MARKER = 'FAKE_TOOL_OK';
export const SEARCH_TOOL = 'tool_search';
export const CALL_TOOL = 'tool_call';
export const CODE_TOOL = 'tool_search_code';
/** The code of a call-before-the-load answer (Tool Search's `TOOL_NOT_LOADED`). */
const NOT_LOADED = 'TOOL_NOT_LOADED';
const ALWAYS_SAY = /tool search qa always say (\S+)/;
/** Anthropic's tool-search tools (`tool_search_tool_bm25_20251119`, `…_regex_…`) by name, as a gateway offers them to a model without native support. */
export const DEFERRED_SEARCH_TOOLS: readonly string[] = ['tool_search_tool_bm25', 'tool_search_tool_regex'];

interface Exchange {
  readonly call: ChatToolCall;
  readonly result: string | undefined;
}

export function planNextStep(request: ChatRequest): Step {
  const messages = Array.isArray(request.messages) ? request.messages : [];
  const lastUser = findLastIndex(messages, (m) => m.role === 'user');
  const documents = lastUser >= 0 ? describeDocuments(messages[lastUser]) : undefined;
  if (documents) return { kind: 'answer', reason: 'done', text: documents };
  const vision = lastUser >= 0 ? describeImages(messages[lastUser]) : undefined;
  if (vision) return { kind: 'answer', reason: 'done', text: vision };
  const steps = lastUser >= 0 ? parseSteps(textOf(messages[lastUser])) : undefined;
  if (steps)
    return planSteps(
      steps,
      Array.isArray(request.tools) ? request.tools : [],
      toolResultsSince(messages.slice(lastUser + 1), textOf),
      `call_mock_${messages.length}`,
      isNameFor,
    );
  const script = lastUser >= 0 ? parseScript(textOf(messages[lastUser])) : undefined;
  // `tool search qa always say <word>` in any user message: every answer without a script is exactly <word>
  // (agent-to-agent tests: a side that answers REPLY_SKIP or ANNOUNCE_SKIP).
  const said = messages
    .filter((m) => m.role === 'user')
    .map((m) => ALWAYS_SAY.exec(textOf(m))?.[1])
    .filter((word) => word !== undefined)
    .pop();
  if (!script && said !== undefined) return { kind: 'answer', reason: 'said', text: said };
  if (!script)
    return { kind: 'answer', reason: 'no-script', text: 'Mock model: no script found in the last user message.' };

  const exchanges = exchangesIn(messages.slice(lastUser + 1));
  const searches = new Set([SEARCH_TOOL, ...DEFERRED_SEARCH_TOOLS, ...(script.searchTool ? [script.searchTool] : [])]);
  // `early=1`: the first call of the target by name came before it was loaded; it does not count as an attempt. A
  // client may have rewritten that call (an adapter's repair): then its TOOL_NOT_LOADED answer marks it.
  const early = script.early
    ? exchanges.find((e) => e.call.function.name === script.target || e.result?.includes(NOT_LOADED))
    : undefined;
  const calls = exchanges.filter((e) => !searches.has(e.call.function.name) && e !== early);
  // A fake tool's marker, or any call (not a search) whose result does not read as a failure: real tools answer too.
  const okResult =
    [...exchanges].reverse().find((e) => e.result?.includes(OK_MARKER))?.result ??
    [...calls].reverse().find((e) => e.result !== undefined && !failedResult(e.result))?.result;
  if (okResult !== undefined && (script.loop <= 1 || calls.length >= script.loop)) {
    return { kind: 'answer', reason: 'done', text: `${script.target} answered: ${okResult}` };
  }
  if (calls.length >= script.loop) {
    const last = calls[calls.length - 1]?.result ?? '';
    return { kind: 'answer', reason: 'failed', text: `${script.target} did not succeed: ${last}` };
  }

  const tools = Array.isArray(request.tools) ? request.tools : [];
  const callId = `call_mock_${messages.length}`;
  const call = (lane: Lane, name: string, args: Record<string, unknown>): Step => ({
    kind: 'tool-call',
    lane,
    name,
    args,
    callId,
  });
  const loadBySearch = (tool: ChatTool, args: Record<string, unknown>): Step => {
    const searched = exchanges.some((e) => e.call.function.name === tool.function.name && e.result !== undefined);
    if (!searched) return call('deferred', tool.function.name, args);
    return { kind: 'answer', reason: 'not-found', text: `Tool search loaded no tool named ${script.target}.` };
  };

  const targetCall = (lane: Lane, name: string): Step => {
    const step = call(lane, name, script.args);
    return script.argumentsText !== undefined ? ({ ...step, argumentsText: script.argumentsText } as Step) : step;
  };
  const direct = tools.find((t) => isNameFor(t.function.name, script.target));
  if (direct) return targetCall('direct', direct.function.name);
  if (script.early && !early) return targetCall('unloaded', script.target);

  // Deferred tools: search once; the found tools are then offered and the target is called directly (above).
  // The client's own search tool (`searchTool=`) first: its result holds `tool_reference` blocks that load the target.
  const custom = script.searchTool ? byName(tools, script.searchTool) : undefined;
  if (custom) return loadBySearch(custom, { query: script.query ?? script.target });
  const deferred = tools.find((t) => DEFERRED_SEARCH_TOOLS.includes(t.function.name));
  if (deferred) return loadBySearch(deferred, { query: script.target });

  const code = byName(tools, CODE_TOOL);
  if (code) return call('code', CODE_TOOL, { [codeKey(code)]: codeFor(script) });

  if (mentions(systemText(messages), script.target)) return targetCall('directory', script.target);

  const search = byName(tools, SEARCH_TOOL);
  const callTool = byName(tools, CALL_TOOL);
  if (search && callTool) {
    const argsKey = hasProperty(callTool, 'args') || !hasProperty(callTool, 'arguments') ? 'args' : 'arguments';
    // `early=1` answered with a hint naming the tool_call to make (a framework adapter's tools mode): follow it.
    const hinted = early?.result !== undefined ? hintedCallId(early.result) : undefined;
    if (hinted && calls.length === 0) return call('tools', CALL_TOOL, { id: hinted, [argsKey]: script.args });
    const searched = [...exchanges]
      .reverse()
      .find((e) => e.call.function.name === SEARCH_TOOL && e.result !== undefined);
    if (!searched) return call('tools', SEARCH_TOOL, searchArgs(search, script.query ?? script.target));
    const hit = pickHit(collectHits(searched.result ?? ''), script.target);
    if (!hit) return { kind: 'answer', reason: 'not-found', text: `Search found no tool for ${script.target}.` };
    return call('tools', CALL_TOOL, { id: hit.id, [argsKey]: script.args });
  }
  // Deferred loading (`native` mode's `tool_search`, AI SDK `toolSearch`, other frameworks' tool search): search alone, and the found tools
  // are offered directly on the next request, where the direct lane above calls the target.
  if (search) {
    const searched = exchanges.some((e) => e.call.function.name === SEARCH_TOOL && e.result !== undefined);
    if (!searched) return call('search', SEARCH_TOOL, searchArgs(search, script.query ?? script.target));
    return { kind: 'answer', reason: 'not-found', text: `Search did not make ${script.target} available.` };
  }
  return { kind: 'answer', reason: 'unreachable', text: `None of the offered tools reaches ${script.target}.` };
}

/**
 * Whether a tool message reads as a failure: the gateway's `Error …`/`Blocked …` texts, or JSON saying so
 * (`{ ok: false }`, an `error`, `isError`, or a code-mode `value` that is itself an error).
 */
export function failedResult(text: string): boolean {
  if (/^\s*(Error\b|Blocked\b)/.test(text)) return true;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  const failed = (node: unknown): boolean => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return false;
    const record = node as Record<string, unknown>;
    return (
      record.ok === false ||
      record.isError === true ||
      (record.error !== undefined && record.error !== null) ||
      failed(record.value)
    );
  };
  return failed(value);
}

/** The JavaScript the mock writes for `tool_search_code`: search, pick the hit, call it. */
export function codeFor(script: Script): string {
  const target = JSON.stringify(script.target);
  return [
    'const api = typeof openclaw !== "undefined" ? openclaw.tools : tools;',
    `const hits = await api.search(${JSON.stringify(script.query ?? script.target)});`,
    `const hit = hits.find((h) => h.name === ${target}) ?? hits[0];`,
    `if (!hit) return { error: "no hit for " + ${target} };`,
    `return await api.call(hit.id, ${JSON.stringify(script.args)});`,
  ].join('\n');
}

/**
 * Whether an offered function name stands for `target`: the same name, or the
 * provider-safe form of a name with other characters (`<sanitized>_<8 hex>`).
 */
export function isNameFor(offered: string, target: string): boolean {
  if (offered === target) return true;
  if (/^[a-zA-Z0-9_-]{1,64}$/.test(target)) return false;
  const base = target.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 54) || 'tool';
  return (
    offered.length === base.length + 9 &&
    offered.startsWith(`${base}_`) &&
    /^[0-9a-f]{8}$/.test(offered.slice(base.length + 1))
  );
}

/** The id in a `TOOL_NOT_LOADED` answer's hint that says to call the tool through tool_call as `{"id":…,"args":…}`. */
function hintedCallId(result: string): string | undefined {
  const hint = result.split('\n', 1)[0] ?? '';
  if (!hint.includes(NOT_LOADED) || !hint.includes(CALL_TOOL)) return undefined;
  const literal = /\{"id":("(?:[^"\\]|\\.)*")/.exec(hint)?.[1];
  try {
    return literal ? (JSON.parse(literal) as string) : undefined;
  } catch {
    return undefined;
  }
}

/** Each assistant tool call since the user message, with the tool message that answered it. */
function exchangesIn(turn: readonly ChatMessage[]): Exchange[] {
  const results = new Map<string, string>();
  for (const m of turn)
    if (m.role === 'tool' && typeof m.tool_call_id === 'string') results.set(m.tool_call_id, textOf(m));
  return turn
    .flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []))
    .map((call) => ({ call, result: results.get(call.id) }));
}

interface Hit {
  readonly id: string;
  readonly name: string;
}

/**
 * The hits in a `tool_search` result: `{ id, name }` objects when the result is
 * JSON (looking inside JSON nested in text fields), else the ids of a text
 * rendering (`- plugin:fake:name (args) summary` lines, as the gateway sends).
 */
export function collectHits(text: string): Hit[] {
  const fromJson = jsonHits(text, 0);
  if (fromJson.length) return fromJson;
  return [...text.matchAll(/^\s*-\s+([A-Za-z0-9_-]+:[^\s:]+:\S+)/gm)].map((match) => {
    const id = match[1]!;
    return { id, name: id.slice(id.indexOf(':', id.indexOf(':') + 1) + 1) };
  });
}

function jsonHits(text: string, depth: number): Hit[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const hits: Hit[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node === 'string' && depth < 3 && /^\s*[[{]/.test(node)) hits.push(...jsonHits(node, depth + 1));
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (typeof record.id === 'string' && typeof record.name === 'string')
      hits.push({ id: record.id, name: record.name });
    Object.values(record).forEach(walk);
  };
  walk(value);
  return hits;
}

function pickHit(hits: readonly Hit[], target: string): Hit | undefined {
  return hits.find((h) => h.name === target) ?? hits.find((h) => h.id === target) ?? hits[0];
}

function systemText(messages: readonly ChatMessage[]): string {
  return messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map(textOf)
    .join('\n');
}

/** `target` appears as a whole name (not as part of a longer name). */
function mentions(text: string, target: string): boolean {
  const escaped = target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Not inside an id (`plugin:fake:name`) or a longer name; a `:` may follow (`- name: description`).
  return new RegExp(`(^|[^A-Za-z0-9_.:-])${escaped}($|[^A-Za-z0-9_.-])`).test(text);
}

function byName(tools: readonly ChatTool[], name: string): ChatTool | undefined {
  return tools.find((t) => t.function.name === name);
}

function properties(tool: ChatTool): Record<string, { type?: unknown }> {
  const props = tool.function.parameters?.properties;
  return typeof props === 'object' && props !== null ? (props as Record<string, { type?: unknown }>) : {};
}

function hasProperty(tool: ChatTool, key: string): boolean {
  return Object.hasOwn(properties(tool), key);
}

function searchArgs(tool: ChatTool, target: string): Record<string, unknown> {
  if (!hasProperty(tool, 'query') && hasProperty(tool, 'queries')) return { queries: [target] };
  return { query: target };
}

/** The property `tool_search_code` takes its source in: `code`, else its first required string. */
function codeKey(tool: ChatTool): string {
  if (hasProperty(tool, 'code')) return 'code';
  const required = tool.function.parameters?.required;
  const props = properties(tool);
  const first = Array.isArray(required)
    ? required.find((key): key is string => typeof key === 'string' && props[key]?.type === 'string')
    : undefined;
  return first ?? 'code';
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i]!)) return i;
  return -1;
}
