/**
 * The schema and type of `mcpServers`, the object Claude Desktop, Cursor and
 * `.mcp.json` files use (kept apart from the loader so schema.ts can import it).
 */
/** One `mcpServers` entry as those clients write it. */
export type McpServersEntry = {
  /** `stdio` (with `command`), `http` / `streamable-http` or `sse` (with `url`); optional, as in Claude Desktop and Cursor. */
  type?: 'stdio' | 'http' | 'streamable-http' | 'sse';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
};

const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
const stdioEntry = {
  type: 'object',
  required: ['command'],
  additionalProperties: false,
  properties: {
    type: { const: 'stdio' },
    command: { type: 'string', minLength: 1 },
    args: { type: 'array', items: { type: 'string' } },
    env: stringMap,
    cwd: { type: 'string', minLength: 1 },
  },
} as const;
const httpEntry = {
  type: 'object',
  required: ['url'],
  additionalProperties: false,
  properties: {
    type: { enum: ['http', 'streamable-http', 'sse'] },
    url: { type: 'string', pattern: '^https?://' },
    headers: stringMap,
  },
} as const;

/** JSON Schema of `mcpServers` (if/then/else on `command` or `type: stdio`: a broken entry reports the errors of its own kind only). */
export const mcpServersSchema = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    if: {
      anyOf: [
        { properties: { command: {} }, required: ['command'] },
        { properties: { type: { const: 'stdio' } }, required: ['type'] },
      ],
    },
    then: stdioEntry,
    else: httpEntry,
  },
} as const;
