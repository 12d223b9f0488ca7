/**
 * `tools/list` with bounds and per-tool checks: pages are followed up to
 * `maxPages`, tools kept up to `maxTools` (past either the listing stops and
 * says so), and each tool is checked on its own against the MCP `Tool`
 * schema, so one malformed tool is dropped with a problem naming it while
 * its siblings stay.
 */
import { specTypeSchemas, type Client, type StandardSchemaV1, type Tool } from '@modelcontextprotocol/client';

/** A loose page: any object (the strict `ListToolsResult` fails the whole page, and server, for one bad tool). */
const LoosePage: StandardSchemaV1<unknown, { tools?: unknown; nextCursor?: string; ttlMs?: unknown }> = {
  '~standard': {
    version: 1,
    vendor: 'tool-search',
    validate: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as { tools?: unknown; nextCursor?: string } }
        : { issues: [{ message: 'tools/list answered with something other than an object' }] },
  },
};

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
  /**
   * The smallest `ttlMs` of its pages (MCP 2026-07-28 lists carry one; 0: do not reuse): the listing is read again
   * once it is this old, besides on `list_changed`. Absent (2025-era servers): good until `list_changed`.
   */
  readonly ttlMs?: number;
}

export class ListError extends Error {}

/** JSON nesting allowed in a tool's schemas (real ones stay far below); deeper ones break cloning and compiling downstream. */
export const MAX_SCHEMA_DEPTH = 100;

export async function listTools(
  client: Client,
  limits: ListLimits,
  options: { signal: AbortSignal; timeout: number },
): Promise<ToolListing> {
  const tools: Tool[] = [];
  const dropped: DroppedTool[] = [];
  const seen = new Set<string>();
  let position = 0;
  let cursor: string | undefined;
  let ttlMs: number | undefined;
  const done = (listing: Omit<ToolListing, 'ttlMs'>): ToolListing =>
    ttlMs === undefined ? listing : { ...listing, ttlMs };
  for (let pages = 0; ; pages += 1) {
    if (pages === limits.maxPages)
      return done({ tools, dropped, truncated: { limit: 'maxListPages', value: limits.maxPages } });
    // A loose page schema: the strict one fails the whole page (and server) for one bad tool.
    const legacy = client.getProtocolEra() !== 'modern';
    const page = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LoosePage, options);
    const ttl: unknown = (page as { ttlMs?: unknown }).ttlMs;
    if (!legacy && typeof ttl === 'number' && Number.isFinite(ttl) && ttl >= 0) ttlMs = Math.min(ttlMs ?? ttl, ttl);
    const listed: unknown = (page as { tools?: unknown }).tools;
    if (!Array.isArray(listed)) throw new ListError('tools/list answered without a tools array');
    const room = limits.maxTools - tools.length;
    for (const raw of listed.slice(0, room)) {
      const checked = checkTool(raw, position++, legacy);
      if ('problem' in checked) dropped.push(checked);
      else tools.push(checked);
    }
    if (listed.length > room)
      return done({ tools, dropped, truncated: { limit: 'maxToolsPerServer', value: limits.maxTools } });
    cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
    if (cursor === undefined) return done({ tools, dropped });
    if (seen.has(cursor)) throw new ListError(`tools/list repeated the cursor ${JSON.stringify(cursor).slice(0, 100)}`);
    seen.add(cursor);
  }
}

function checkTool(raw: unknown, position: number, legacy: boolean): Tool | DroppedTool {
  const name = (raw as { name?: unknown } | null)?.name;
  const label = typeof name === 'string' ? name.slice(0, 200) : `#${position}`;
  for (const key of ['inputSchema', 'outputSchema'] as const) {
    const schema = (raw as Record<string, unknown> | null)?.[key];
    if (deeperThan(schema, MAX_SCHEMA_DEPTH))
      return { tool: label, problem: `${key}: nests deeper than ${MAX_SCHEMA_DEPTH} levels` };
  }
  // Up to 2025-11-25 an output schema describes an object; 2026-07-28 allows any JSON Schema 2020-12 root.
  const output = (raw as { outputSchema?: unknown } | null)?.outputSchema;
  if (legacy && output !== undefined && (output as { type?: unknown } | null)?.type !== 'object') {
    return { tool: label, problem: 'outputSchema.type: must be "object" (MCP 2025-11-25)' };
  }
  const parsed = specTypeSchemas.Tool['~standard'].validate(raw);
  if (!parsed.issues) return parsed.value as Tool;
  const problem = parsed.issues
    .slice(0, 3)
    .map((issue) => {
      const path = (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part));
      return `${path.length ? path.join('.') : '(tool)'}: ${issue.message}`;
    })
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
