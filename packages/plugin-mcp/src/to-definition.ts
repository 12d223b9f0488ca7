/**
 * Maps an MCP `Tool` to a kernel tool definition: source `mcp`, owner = the
 * server name, so the kernel id is `mcp:<server>:<tool>`. Schemas and
 * annotations are carried as the server sent them (the kernel validates the
 * schemas; an approval plugin reads `readOnlyHint`/`destructiveHint`), except
 * that a schema written in JSON Schema 2020-12 without saying so gets its
 * `$schema` (schema-dialect.ts), so the kernel validates it as 2020-12. Its `_meta` decides its catalog mode
 * (tool-visibility.ts): app-only tools are hidden, `anthropic/alwaysLoad` ones pinned visible.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { JsonSchema, ToolAnnotations, ToolDefinition, ToolExecutor } from '@tool-search/kernel';
import { withMcpDialect } from './schema-dialect.js';
import { catalogModeOf } from './tool-visibility.js';

declare module '@tool-search/kernel' {
  interface ToolMeta {
    /** The `mcp.servers` name of the MCP server that serves this tool. */
    mcpServer?: string;
    /** The tool's MCP `_meta`, as the server listed it (a front end lists it on). */
    mcpToolMeta?: Readonly<Record<string, unknown>>;
  }
}

export function toDefinition(server: string, tool: Tool, execute: ToolExecutor): ToolDefinition {
  const title = tool.title ?? tool.annotations?.title;
  return {
    name: tool.name,
    source: 'mcp',
    owner: server,
    ...(title !== undefined ? { title } : {}),
    description: tool.description ?? '',
    inputSchema: withMcpDialect(tool.inputSchema as JsonSchema),
    ...(tool.outputSchema !== undefined ? { outputSchema: withMcpDialect(tool.outputSchema as JsonSchema) } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations as ToolAnnotations } : {}),
    // App-only (MCP Apps) tools are hidden, `anthropic/alwaysLoad` ones always visible (tool-visibility.ts).
    ...(catalogModeOf(tool._meta) !== 'catalog' ? { catalogMode: catalogModeOf(tool._meta) } : {}),
    meta: { mcpServer: server, ...(tool._meta !== undefined ? { mcpToolMeta: tool._meta } : {}) },
    execute,
  };
}
