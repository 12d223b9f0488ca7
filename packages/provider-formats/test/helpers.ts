import type { KernelPlugin, ToolDefinition } from '@tool-search/kernel';

export function tool(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    source: 'core',
    owner: 'core',
    description: `The ${name} tool`,
    inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
    execute: (args) => ({ content: [{ type: 'text', text: `OK ${name} ${JSON.stringify(args)}` }] }),
    ...extra,
  };
}

/** A source plugin that adds the given tools (or runs `list`, e.g. slowly). */
export function source(name: string, tools: ToolDefinition[] | (() => Promise<ToolDefinition[]>)): KernelPlugin {
  return {
    name,
    apply({ hooks }) {
      hooks.listTools.tapPromise(async (sink) => {
        sink.add(typeof tools === 'function' ? await tools() : tools);
      });
    },
  };
}
