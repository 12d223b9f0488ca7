/** The `direct` exposure: every catalog tool's schema, as it is. Built in, applied like any plugin. */
import { directTool } from '../exposure.js';
import type { KernelPlugin } from '../plugin.js';

export const DIRECT_MODE_PLUGIN = '@tool-search/kernel:direct-mode';

export function directModePlugin(): KernelPlugin {
  return {
    name: DIRECT_MODE_PLUGIN,
    apply({ hooks }) {
      hooks.materialize.for('direct').tap((draft, ctx) => {
        draft.tools.push(...ctx.searchable.map(directTool));
        return draft;
      });
    },
  };
}
