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
  /**
   * `tools.exec.applyPatch`: `enabled` (default false) lists `apply_patch`; `workspaceOnly` (default true) confines it;
   * `allowModels` (model ids, `provider/model`, or `*`) replaces the default rule that only OpenAI models get it.
   */
  readonly applyPatch?: {
    readonly enabled?: boolean;
    readonly workspaceOnly?: boolean;
    readonly allowModels?: readonly string[];
  };
}

/** The providers whose models were trained on apply_patch's envelope (OpenClaw lists it for OpenAI models only). */
export const APPLY_PATCH_PROVIDERS: readonly string[] = Object.freeze(['openai', 'openai-codex', 'azure-openai']);

/** Throws OPTIONS_INVALID when `workspace` is not an existing folder. */
export function fsPlugin(options: FsPluginOptions): KernelPlugin {
  if (typeof options?.workspace !== 'string' || !options.workspace) {
    throw new ToolSearchError(ErrorCode.OPTIONS_INVALID, 'fsPlugin needs a `workspace` folder', {
      plugin: PLUGIN_NAME,
    });
  }
  const root = workspaceRoot(options.workspace);
  const applyPatch = {
    enabled: options.applyPatch?.enabled === true,
    workspaceOnly: options.applyPatch?.workspaceOnly !== false,
  };
  const definitions: readonly ToolDefinition[] = Object.freeze(fsToolDefinitions({ root, applyPatch }));
  const withoutPatch = Object.freeze(definitions.filter((tool) => tool.name !== 'apply_patch'));
  const allowModels = options.applyPatch?.allowModels;
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink, { run }) => {
        const why = applyPatch.enabled ? patchRefusal(run.request.provider, run.request.model, allowModels) : undefined;
        sink.add(why ? withoutPatch : definitions);
        if (why)
          sink.diagnostic({
            code: ErrorCode.TOOL_NOT_CONFIGURED,
            level: 'info',
            message: `apply_patch is not listed: ${why}`,
            toolId: 'core:core:apply_patch',
            details: { tool: 'apply_patch' },
          });
      });
    },
  };
}

/**
 * Why this run's model does not get apply_patch, or undefined when it does. With `allowModels`, only the models it
 * names (`gpt-5.2`, `openai/gpt-5.2`, `*`); without it, OpenAI models, and runs that name no provider (nothing to go by).
 */
function patchRefusal(
  provider: string | undefined,
  model: string | undefined,
  allowModels: readonly string[] | undefined,
): string | undefined {
  const full = provider && model ? `${provider}/${model}` : model;
  if (allowModels) {
    const wanted = allowModels.map((entry) => entry.toLowerCase());
    const ok =
      wanted.includes('*') ||
      (model !== undefined &&
        (wanted.includes(model.toLowerCase()) || (full !== undefined && wanted.includes(full.toLowerCase()))));
    return ok
      ? undefined
      : `tools.exec.applyPatch.allowModels does not name ${full ?? "this run's model (the run names none)"}`;
  }
  if (provider === undefined || APPLY_PATCH_PROVIDERS.includes(provider.toLowerCase())) return undefined;
  return `it is offered to OpenAI models only, and this run's provider is ${provider}; tools.exec.applyPatch.allowModels can name other models`;
}
