/**
 * What the CLI says about the built-in demo catalog: its tools are fakes, and how to get the real ones. The preset's
 * `DEMO_CATALOG_NOTICE` says the demo is in use; this line, printed right after it (and under the top-level help when
 * there is no `./tool-search.json`), says what that means for a newcomer.
 */
import type { ToolDescriptor } from '@tool-search/kernel';

export const DEMO_REAL_TOOLS_HINT =
  'the demo tools are fakes that do nothing (each answers FAKE_TOOL_OK and says it did nothing); for the real tools ' +
  "(read, write, edit, exec, web_fetch, … in ./workspace) run: tool-search config set plugins.core '{}' " +
  '(writes ./tool-search.json), or add MCP servers (mcp.servers) or plugin modules (plugins) to it';

/** The fake catalog's mark (`ToolMeta.demo` of `@tool-search/plugin-fake-catalog`, read by name: no plugin import). */
export function isDemoTool(tool: ToolDescriptor): boolean {
  return (tool.meta as Readonly<Record<string, unknown>> | undefined)?.['demo'] === true;
}
