import type { KernelPlugin, ToolDefinition, ToolResult } from '@tool-search/kernel';

export const ok = (text: string): ToolResult => ({ content: [{ type: 'text', text }] });

export function tool(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    source: 'core',
    owner: 'core',
    description: `The ${name} tool`,
    inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
    execute: (args) => ok(`OK ${name} ${JSON.stringify(args)}`),
    ...extra,
  };
}

/** A source plugin that adds the given tools (or runs `list` for custom behaviour). */
export function source(
  name: string,
  tools: ToolDefinition[] | (() => Promise<ToolDefinition[]> | ToolDefinition[]),
): KernelPlugin {
  return {
    name,
    apply({ hooks }) {
      hooks.listTools.tapPromise(async (sink) => {
        sink.add(typeof tools === 'function' ? await tools() : tools);
      });
    },
  };
}

/** A policy plugin that drops the named tools. */
export function dropper(name: string, drop: string[]): KernelPlugin {
  return {
    name,
    apply({ hooks }) {
      hooks.filterPolicy.tap((tools, ctx) =>
        tools.filter((t) => {
          const keep = !drop.includes(t.name);
          if (!keep) ctx.trace(t.id, { step: 'test', kept: false, rule: `drop ${t.name}` });
          return keep;
        }),
      );
    },
  };
}
