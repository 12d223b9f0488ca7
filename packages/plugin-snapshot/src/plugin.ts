/**
 * `snapshotPlugin`: lists a snapshot's tools as a source (owner = server), so
 * a recorded catalog can be exposed and measured without starting its
 * servers. The tools have no executor: a call comes back `pending`, as a
 * client tool would, which is what payload measurements need.
 */
import type { KernelPlugin, ToolDefinition } from '@tool-search/kernel';
import { PLUGIN_NAME, readSnapshotFile, type CatalogSnapshot } from './format.js';

export interface SnapshotPluginOptions {
  /** A snapshot file; read once, on the first run. */
  readonly file?: string;
  /** An already parsed snapshot (wins over `file`). */
  readonly snapshot?: CatalogSnapshot;
}

export function snapshotPlugin(options: SnapshotPluginOptions): KernelPlugin {
  let definitions: readonly ToolDefinition[] | undefined;
  const load = (): readonly ToolDefinition[] => {
    const snapshot = options.snapshot ?? readSnapshotFile(options.file ?? '');
    return Object.freeze(
      snapshot.tools.map((tool) => ({
        name: tool.name,
        source: tool.source ?? 'mcp',
        owner: tool.server,
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      })),
    );
  };
  return {
    name: PLUGIN_NAME,
    apply(api) {
      api.hooks.listTools.tap((sink) => {
        definitions ??= load();
        sink.add(definitions);
      });
    },
  };
}
