/**
 * The `directory` exposure: the three control tools, the tools that must stay
 * visible (client tools, the configured `visible` list; the kernel adds the
 * `direct-only` ones), the few tools the turn likely needs (ranked from its
 * last user message, `RunRequest.turnText`) with full schemas, and a bounded
 * directory of every other tool's name in the system prompt. A hidden tool called by its exact,
 * unique name runs through `run.call` (the kernel's `resolveHidden` path).
 */
import type { KernelPlugin } from '@tool-search/kernel';
import { CONTROL_TOOL_NAMES, controlToolsFor } from '@tool-search/control-tools';
import { renderDirectory } from './directory.js';
import { DIRECTORY_MODE_PLUGIN, parseOptions, type DirectoryModeOptions } from './options.js';
import { planDirectory } from './plan.js';

export const DIRECTORY_MODE_SYSTEM = [
  'Only some tools are loaded; the tool directory below names the others.',
  'Call a directory tool by its name like any loaded tool: its arguments are checked against its schema, so if unsure call',
  `${CONTROL_TOOL_NAMES.describe} with its name first. Use ${CONTROL_TOOL_NAMES.search} to find tools by what they do and`,
  `${CONTROL_TOOL_NAMES.call} with { "id", "args" } to run a tool by its id.`,
].join(' ');

export function directoryModePlugin(options: DirectoryModeOptions = {}): KernelPlugin {
  const resolved = parseOptions(options);
  // The run's `searchLimits` (a per-agent or per-provider toolSearch override) win over these options.
  const controls = controlToolsFor({
    ...resolved,
    callHint: `Call it by its name, or with ${CONTROL_TOOL_NAMES.call} { "id": "<id>", "args": { ... } }.`,
  });
  const controlNames: string[] = Object.values(CONTROL_TOOL_NAMES);
  return {
    name: DIRECTORY_MODE_PLUGIN,
    apply({ hooks }) {
      hooks.materialize.for('directory').tap((draft, ctx) => {
        const plan = planDirectory(ctx, resolved.visible, controlNames, resolved.turnTools);
        const directory = renderDirectory(plan.entries, resolved.budgetChars, plan.unlisted);
        draft.tools.push(...controls(ctx.run.info.request), ...plan.visible);
        draft.system.push(DIRECTORY_MODE_SYSTEM, directory.text);
        draft.resolveHidden = plan.resolveHidden;
        return draft;
      });
    },
  };
}
