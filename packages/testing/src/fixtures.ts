/** Small fixtures for plugin tests: a fake tool that echoes its arguments, and a source that lists given tools. */
import type { KernelPlugin, ToolDefinition, ToolSource } from '@tool-search/kernel';

/**
 * A tool definition whose `execute` answers `FAKE_TOOL_OK <name> <JSON args>` (the convention the fake catalog
 * and the mock provider share), taking no arguments unless `extra.inputSchema` says otherwise.
 */
export function fakeTool(
  name: string,
  source: ToolSource,
  owner: string,
  description: string,
  extra: Partial<ToolDefinition> = {},
): ToolDefinition {
  return {
    name,
    source,
    owner,
    description,
    inputSchema: { type: 'object', properties: {}, required: [] },
    execute: (args) => ({ content: [{ type: 'text', text: `FAKE_TOOL_OK ${name} ${JSON.stringify(args)}` }] }),
    ...extra,
  };
}

/** A source plugin that lists `tools` on every run. */
export function toolSource(tools: readonly ToolDefinition[], name = 'test-source'): KernelPlugin {
  return { name, apply: ({ hooks }) => hooks.listTools.tap((sink) => sink.add(tools)) };
}
