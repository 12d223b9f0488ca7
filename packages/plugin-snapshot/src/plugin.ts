/**
 * `snapshotPlugin`: lists a snapshot's tools as a source (owner = server), so
 * a recorded catalog can be exposed and measured without starting its
 * servers. The tools have no executor: a call comes back `pending`, as a
 * client tool would, which is what payload measurements need.
 */
import type { KernelPlugin, ToolDefinition } from '@tool-search/kernel';
import { PLUGIN_NAME, readSnapshotFile, snapshotDefinition, type CatalogSnapshot } from './format.js';

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
    return Object.freeze(snapshot.tools.map(snapshotDefinition));
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
