/**
 * The `direct` exposure: every catalog tool's schema, as it is. Built in,
 * applied like any plugin. Names are unique in an exposure, so when several
 * tools share a name, the one the name resolves to (source precedence) keeps
 * it and the others are exposed under `<owner>__<name>`; calls route by tool
 * id either way.
 */
import { directTool } from '../exposure.js';
import type { KernelPlugin } from '../plugin.js';
import { byNamePrecedence } from '../run.js';
import type { ToolDescriptor } from '../types.js';

export const DIRECT_MODE_PLUGIN = '@tool-search/kernel:direct-mode';

export function directModePlugin(): KernelPlugin {
  return {
    name: DIRECT_MODE_PLUGIN,
    apply({ hooks }) {
      hooks.materialize.for('direct').tap((draft, ctx) => {
        const owners = nameOwners([...ctx.searchable, ...ctx.directOnly]);
        const taken = new Set([...owners.values()].map((tool) => tool.name));
        for (const tool of ctx.searchable) {
          if (owners.get(tool.name) === tool) {
            draft.tools.push(directTool(tool));
            continue;
          }
          let alias = `${tool.owner}__${tool.name}`;
          for (let n = 2; taken.has(alias); n++) alias = `${tool.owner}__${tool.name}_${n}`;
          taken.add(alias);
          draft.tools.push({ ...directTool(tool), name: alias });
        }
        return draft;
      });
    },
  };
}

/** For each name, the tool a lookup by that name resolves to. */
function nameOwners(tools: readonly ToolDescriptor[]): Map<string, ToolDescriptor> {
  const owners = new Map<string, ToolDescriptor>();
  for (const tool of [...tools].sort(byNamePrecedence)) if (!owners.has(tool.name)) owners.set(tool.name, tool);
  return owners;
}
