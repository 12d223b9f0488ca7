/**
 * The built-in plugin id `core`: `plugins: { core: { workspace } }` turns on
 * the real core tools — files (`@tool-search/plugin-fs`), runtime
 * (`@tool-search/plugin-exec`), web (`@tool-search/plugin-web`, from
 * `tools.web`), memory (`@tool-search/plugin-memory`) and PDF
 * (`@tool-search/plugin-pdf`) — configured from `tools.exec`,
 * `tools.elevated` and `agents.list`. Their ids (`core:core:read`, …) are the
 * fake catalog's core ids, so both together are a config error.
 */
import { ConfigError, type KernelPlugin } from '@tool-search/kernel';
import type { ToolSearchConfig } from '@tool-search/config';
import { fsPlugin } from '@tool-search/plugin-fs';
import { execPlugin } from '@tool-search/plugin-exec';
import { memoryPlugin } from '@tool-search/plugin-memory';
import { pdfPlugin } from '@tool-search/plugin-pdf';
import { webPlugin, type WebConfig } from '@tool-search/plugin-web';

export const CORE_PLUGIN_ID = 'core';

/** The core tool plugins for `plugins.core`. `fakeCore`: the fake catalog adds its core tools in this config. */
export function coreToolPlugins(core: { workspace?: string }, config: ToolSearchConfig, fakeCore: boolean): KernelPlugin[] {
  if (fakeCore) {
    throw new ConfigError(
      '/plugins/core',
      'coreConflict',
      'plugins.core (the real core tools) and the fake catalog\'s core tools have the same ids; set plugins["fake-catalog"].core to false or remove one of them',
      { details: { plugin: CORE_PLUGIN_ID, conflictsWith: '/plugins/fake-catalog/core' } },
    );
  }
  // A config file's loader resolves workspace against its folder; a config built in code means the working folder.
  const workspace = core.workspace ?? process.cwd();
  const exec = config.tools?.exec;
  return [
    fsPlugin({ workspace, ...(exec?.applyPatch ? { applyPatch: exec.applyPatch } : {}) }),
    execPlugin({
      workspace,
      ...(exec ? { exec: withoutApplyPatch(exec) } : {}),
      ...(config.tools?.elevated ? { elevated: config.tools.elevated } : {}),
      agents: config.agents?.list ?? [],
    }),
    webPlugin({ web: config.tools?.web as WebConfig | undefined }),
    memoryPlugin({ workspace }),
    pdfPlugin({ workspace, ...pdfLimits(config.agents?.defaults) }),
  ];
}

/** OpenClaw's `agents.defaults.pdfMaxBytesMb` / `pdfMaxPages`, when set. */
function pdfLimits(defaults: unknown): { maxBytesMb?: number; maxPages?: number } {
  const { pdfMaxBytesMb, pdfMaxPages } = (defaults ?? {}) as { pdfMaxBytesMb?: unknown; pdfMaxPages?: unknown };
  return {
    ...(typeof pdfMaxBytesMb === 'number' && pdfMaxBytesMb > 0 ? { maxBytesMb: pdfMaxBytesMb } : {}),
    ...(typeof pdfMaxPages === 'number' && pdfMaxPages >= 1 ? { maxPages: Math.floor(pdfMaxPages) } : {}),
  };
}

function withoutApplyPatch(exec: Record<string, unknown>): Record<string, unknown> {
  const { applyPatch: _applyPatch, ...rest } = exec;
  return rest;
}
