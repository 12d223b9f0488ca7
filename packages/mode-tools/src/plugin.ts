/**
 * The `tools` exposure: the model sees three control tools and a short usage
 * text; every catalog tool is reached through search. The kernel appends the
 * `direct-only` tools itself.
 */
import { directTool, type ExposedTool, type KernelPlugin, type RunApi, type ToolDescriptor } from '@tool-search/kernel';
import { CONTROL_TOOL_NAMES, controlToolsFor } from '@tool-search/control-tools';
import { parseOptions, TOOLS_MODE_PLUGIN, type ToolsModeOptions } from './options.js';
import { prepareIndex } from '@tool-search/search';

export const TOOLS_MODE_SYSTEM = [
  'Most tools are not loaded. To use one:',
  `1. ${CONTROL_TOOL_NAMES.search} with a few words on what you need (\`queries\` searches several needs at once); each hit gives the tool id and its arguments.`,
  `2. ${CONTROL_TOOL_NAMES.call} with { "id": <tool id>, "args": { ... } }.`,
  `If a hit's argument signature is not enough, ${CONTROL_TOOL_NAMES.describe} with the id returns the full input schema. Tools listed directly are called directly.`,
].join('\n');

export function toolsModePlugin(options: ToolsModeOptions = {}): KernelPlugin {
  const resolved = parseOptions(options);
  // The run's `searchLimits` (a per-agent or per-provider toolSearch override) win over these options.
  const controls = controlToolsFor({
    ...resolved,
    callHint: `Run it with ${CONTROL_TOOL_NAMES.call} { "id": "<id>", "args": { ... } }.`,
  });
  return {
    name: TOOLS_MODE_PLUGIN,
    apply({ hooks }) {
      hooks.materialize.for('tools').tap((draft, ctx) => {
        // The catalog is known: build its search index now, off the first search's path.
        prepareIndex(ctx.run);
        draft.tools.push(...controls(ctx.run.info.request));
        draft.system.push(TOOLS_MODE_SYSTEM);
        draft.loadOnCall = loader(ctx.run, ctx.searchable);
        return draft;
      });
    },
  };
}

/**
 * A model that calls a searchable tool by its name (or id) instead of through tool_call gets its schema and can call
 * it by that name from then on. Only the run's searchable catalog loads: a tool policy dropped stays unknown.
 */
function loader(run: RunApi, searchable: readonly ToolDescriptor[]): (name: string) => ExposedTool | undefined {
  const ids = new Set(searchable.map((tool) => tool.id));
  return (name) => {
    const tool = run.tool(name);
    return tool && ids.has(tool.id) ? directTool(tool) : undefined;
  };
}
