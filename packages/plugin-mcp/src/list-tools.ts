/**
 * `tools/list` with bounds and per-tool checks: pages are followed up to
 * `maxPages`, tools kept up to `maxTools` (past either the listing stops and
 * says so), and each tool is checked on its own against the MCP `Tool`
 * schema, so one malformed tool is dropped with a problem naming it while
 * its siblings stay.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PaginatedResultSchema, ToolSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

export interface ListLimits {
  readonly maxTools: number;
  readonly maxPages: number;
}

/** A tool the server listed that is not a valid MCP tool. */
export interface DroppedTool {
  /** Its name, or `#<position>` when the name itself is not a string. */
  readonly tool: string;
  readonly problem: string;
}

export interface ToolListing {
  readonly tools: readonly Tool[];
  readonly dropped: readonly DroppedTool[];
  /** Set when a bound stopped the listing: which one, and its value. */
  readonly truncated?: { readonly limit: 'maxToolsPerServer' | 'maxListPages'; readonly value: number };
}

export class ListError extends Error {}

/** JSON nesting allowed in a tool's schemas (real ones stay far below); deeper ones break cloning and compiling downstream. */
export const MAX_SCHEMA_DEPTH = 100;

export async function listTools(client: Client, limits: ListLimits, options: { signal: AbortSignal; timeout: number }): Promise<ToolListing> {
  const tools: Tool[] = [];
  const dropped: DroppedTool[] = [];
  const seen = new Set<string>();
  let position = 0;
  let cursor: string | undefined;
  for (let pages = 0; ; pages += 1) {
    if (pages === limits.maxPages) return { tools, dropped, truncated: { limit: 'maxListPages', value: limits.maxPages } };
    // A loose page schema: the strict one fails the whole page (and server) for one bad tool.
    const page = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, PaginatedResultSchema, options);
    const listed: unknown = (page as { tools?: unknown }).tools;
    if (!Array.isArray(listed)) throw new ListError('tools/list answered without a tools array');
    const room = limits.maxTools - tools.length;
    for (const raw of listed.slice(0, room)) {
      const checked = checkTool(raw, position++);
      if ('problem' in checked) dropped.push(checked);
      else tools.push(checked);
    }
    if (listed.length > room) return { tools, dropped, truncated: { limit: 'maxToolsPerServer', value: limits.maxTools } };
    cursor = page.nextCursor;
    if (cursor === undefined) return { tools, dropped };
    if (seen.has(cursor)) throw new ListError(`tools/list repeated the cursor ${JSON.stringify(cursor).slice(0, 100)}`);
    seen.add(cursor);
  }
}

function checkTool(raw: unknown, position: number): Tool | DroppedTool {
  const name = (raw as { name?: unknown } | null)?.name;
  const label = typeof name === 'string' ? name.slice(0, 200) : `#${position}`;
  for (const key of ['inputSchema', 'outputSchema'] as const) {
    const schema = (raw as Record<string, unknown> | null)?.[key];
    if (deeperThan(schema, MAX_SCHEMA_DEPTH)) return { tool: label, problem: `${key}: nests deeper than ${MAX_SCHEMA_DEPTH} levels` };
  }
  const parsed = ToolSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problem = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(tool)'}: ${issue.message}`)
    .join('; ');
  return { tool: label, problem };
}

/** Iterative, so a hostile depth cannot overflow the stack here. */
function deeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
