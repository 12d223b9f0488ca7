/**
 * The real core file tools (`core:core:read`, `write`, `edit`, and
 * `apply_patch` once enabled), confined to one workspace folder. Definitions
 * are built once per plugin and reused by every run.
 */
import { ErrorCode, ToolSearchError, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { workspaceRoot } from '@tool-search/workspace';
import { fsToolDefinitions } from './tools.js';

export const PLUGIN_NAME = '@tool-search/plugin-fs';

export interface FsPluginOptions {
  /** The folder the tools work in (`plugins.core.workspace`); it must exist. */
  readonly workspace: string;
  /** `tools.exec.applyPatch`: `enabled` (default false) lists `apply_patch`; `workspaceOnly` (default true) confines it. */
  readonly applyPatch?: { readonly enabled?: boolean; readonly workspaceOnly?: boolean };
}

/** Throws OPTIONS_INVALID when `workspace` is not an existing folder. */
export function fsPlugin(options: FsPluginOptions): KernelPlugin {
  if (typeof options?.workspace !== 'string' || !options.workspace) {
    throw new ToolSearchError(ErrorCode.OPTIONS_INVALID, 'fsPlugin needs a `workspace` folder', { plugin: PLUGIN_NAME });
  }
  const root = workspaceRoot(options.workspace);
  const applyPatch = { enabled: options.applyPatch?.enabled === true, workspaceOnly: options.applyPatch?.workspaceOnly !== false };
  const definitions: readonly ToolDefinition[] = Object.freeze(fsToolDefinitions({ root, applyPatch }));
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink) => sink.add(definitions));
    },
  };
}
