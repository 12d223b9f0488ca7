/**
 * What the model sees in code mode: one tool whose description is the API
 * contract of the bridge, as TypeScript declarations, and a short system text.
 * Both are constants: the exposure has the same size whatever the catalog.
 */
import type { JsonSchema } from '@tool-search/kernel';

export const CODE_TOOL_NAME = 'tool_search_code';

export const CODE_TOOL_DESCRIPTION = `Run JavaScript to find and use tools. \`code\` is the body of an async function: use await, and return a JSON value. Only these globals exist (no require, import, fetch, process or timers):
declare const openclaw: { tools: {
  // Compact hits, best first. hits.truncated: more tools matched (narrow the query or raise limit).
  search(query: string, options?: { limit?: number }): Promise<Hits>;
  // Several needs at once: one Hits per query, in order.
  search(queries: string[], options?: { limit?: number }): Promise<Hits[] & { truncated: boolean }>;
  // Several phrasings of ONE need (fuse: true): one Hits ranked from all of them.
  search(queries: string[], options: { limit?: number; fuse: true }): Promise<Hits>;
  // Full metadata and exact JSON Schema of one tool.
  describe(id: string): Promise<{ id: string; name: string; description: string; inputSchema: object }>;
  // The tool's result. A blocked or failed call throws an Error with a \`code\`.
  call(id: string, args: object): Promise<{ content: { type: string; text?: string }[]; structuredContent?: unknown; isError?: boolean }>;
} };
type Hits = { id: string; name: string; summary: string; input: string }[] & { query: string; truncated: boolean };
declare const console: { log(...a: unknown[]): void; warn(...a: unknown[]): void; error(...a: unknown[]): void };
A good query names the action and the thing in a few words ("create issue github", not the whole request); a tool's name finds it, and "select:name1,name2" returns exactly those tools. Unsure how the tools word it? Send 2–3 phrasings of the same need with fuse: true.
Unknown ids and bad arguments throw an Error with a \`code\`. You get { ok, value, logs } back.`;

export const CODE_TOOL_INPUT_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  properties: {
    code: {
      type: 'string',
      description:
        'The body of an async JavaScript function, e.g. `const hits = await openclaw.tools.search("send email"); return hits;`',
    },
  },
  required: ['code'],
  additionalProperties: false,
});

export const CODE_MODE_SYSTEM = `Most tools are not listed. Find and use them with ${CODE_TOOL_NAME}: search, then call by id in the same code, e.g. \`const hits = await openclaw.tools.search("weather"); return await openclaw.tools.call(hits[0].id, { city: "Oslo" });\`. Describe a tool first when its input is unclear. Tools executed by the client cannot be called from code: call them directly.`;
