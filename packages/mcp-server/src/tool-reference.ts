/**
 * `tool_reference` blocks for clients that load tools natively (Anthropic's tool search: a tool result holding
 * `{ "type": "tool_reference", "tool_name": … }` makes the API load that deferred tool's definition). Claude Code
 * defers the MCP tools it is listed and loads them natively, so for a client that advertises this serve mcp:
 * - lists the searchable catalog tools too (`tools/list`: the exposure, then each catalog tool under its own name,
 *   the first one by the kernel's name precedence when several share a name), for the client to defer;
 * - runs a `tools/call` on such a name as a direct call of that tool (origin `direct`: the model's own call);
 * - gives a search result (`tool_search`, in `tools` and `directory` modes) one `tool_reference` block per tool it
 *   found and lists, in the result's `_meta["tool-search/toolReferences"]`: `tool_reference` is not an MCP content
 *   type, and the official SDKs refuse a result whose `content` holds one (the server before sending, clients on
 *   receipt), so `content` keeps its text only, and the client moves the blocks into the model's tool result.
 * A client advertises this by its `clientInfo.name` `"claude-code"` (Claude Code's), or by the experimental capability
 * `toolReference` (`capabilities.experimental.toolReference: {}`, this server's, for any other client). Every other
 * client gets the plain list and results, as before; the `toolReferences: false` option gives everyone those.
 */
import type { CallToolResult, ClientCapabilities, Implementation, Tool } from '@modelcontextprotocol/server';
import type { Run, RunExposure, ToolDescriptor } from '@tool-search/kernel';
import { toMcpTool, type Snapshot } from './live-run.js';

export const CLAUDE_CODE_CLIENT = 'claude-code';
export const TOOL_REFERENCE_CAPABILITY = 'toolReference';
/** Where a search result carries its `tool_reference` blocks. */
export const TOOL_REFERENCES_META_KEY = 'tool-search/toolReferences';

export interface ToolReferenceBlock {
  readonly type: 'tool_reference';
  readonly tool_name: string;
}

/** Whether a client (its `initialize` info, or a 2026-07-28 request's envelope) takes `tool_reference` blocks. */
export function wantsToolReferences(
  info: Partial<Implementation> | undefined,
  capabilities: ClientCapabilities | undefined,
): boolean {
  const experimental = capabilities?.experimental as Record<string, unknown> | undefined;
  return info?.name === CLAUDE_CODE_CLIENT || experimental?.[TOOL_REFERENCE_CAPABILITY] !== undefined;
}

/** The searchable catalog tools a reference client gets listed after the exposure, by the name each is listed under. */
export function referencedTools(run: Run, exposure: RunExposure): ReadonlyMap<string, ToolDescriptor> {
  const taken = new Set(exposure.tools.map((tool) => tool.name));
  const out = new Map<string, ToolDescriptor>();
  for (const tool of run.catalog) {
    if (tool.catalogMode !== 'catalog' || taken.has(tool.name) || out.has(tool.name)) continue;
    // Several tools of one name: the one the kernel calls by that name (name precedence) is listed.
    if (run.tool(tool.name)?.id === tool.id) out.set(tool.name, tool);
  }
  return out;
}

/** A search result with a `tool_reference` block (in `_meta`) per listed tool it found; any other result unchanged. */
export function withToolReferences(
  result: CallToolResult,
  listed: ReadonlyMap<string, ToolDescriptor>,
  exposure: RunExposure,
  called: string,
): CallToolResult {
  const control = exposure.tools.find((tool) => tool.name === called)?.kind === 'control';
  if (!control || result.isError) return result;
  const names = [...new Set(foundIds(result.structuredContent))].flatMap((id) => {
    const tool = [...listed.values()].find((candidate) => candidate.id === id);
    return tool ? [tool.name] : [];
  });
  if (!names.length) return result;
  const blocks: ToolReferenceBlock[] = names.map((name) => ({ type: 'tool_reference', tool_name: name }));
  return { ...result, _meta: { ...result._meta, [TOOL_REFERENCES_META_KEY]: blocks } };
}

/** The ids of a search result's hits (one query: `hits`; several: `results[].hits`). */
function foundIds(structured: unknown): string[] {
  if (typeof structured !== 'object' || structured === null) return [];
  const { hits, results } = structured as { hits?: unknown; results?: unknown };
  if (Array.isArray(results)) return results.flatMap((entry) => foundIds(entry));
  if (!Array.isArray(hits)) return [];
  return hits.flatMap((hit) => (typeof hit?.id === 'string' ? [hit.id as string] : []));
}

/** The `tools/list` answer for a reference client: the exposure's tools, then the referenced catalog tools. */
export function listWithReferences(snapshot: Snapshot): Tool[] {
  const extra = [...referencedTools(snapshot.run, snapshot.exposure).values()].map((tool) =>
    toMcpTool(
      { name: tool.name, description: tool.description, inputSchema: tool.inputSchema, toolId: tool.id, kind: 'tool' },
      snapshot.run,
    ),
  );
  return [...snapshot.tools, ...extra];
}
