/**
 * Every error code a deployment of this preset can raise, for `tool-search errors`: a package's codes are known once
 * its module has run `defineErrors`, so this loads the packages the preset composes lazily (the core tools, MCP) and
 * the config's plugin modules, then lists them all: the kernel's first, then by owning package.
 */
import { listErrorCodes, type ErrorCodeInfo } from '@tool-search/kernel';
import type { ToolSearchConfig } from '@tool-search/config';
import { isBuiltinPlugin } from './builtins.js';
import { KNOWN_PLUGINS } from './preset.js';

export async function deploymentErrorCodes(
  config: ToolSearchConfig,
  baseDir: string = process.cwd(),
): Promise<ErrorCodeInfo[]> {
  // The packages the preset imports only when configured; the others are loaded with the preset itself.
  await Promise.all([
    import('./core-tools.js'),
    import('@tool-search/plugin-mcp'),
    import('@tool-search/plugin-snapshot'),
  ]);
  for (const [id, options] of Object.entries(config.plugins ?? {})) {
    // Loading a module runs its `defineErrors`; its options are checked as when the kernel is built.
    if (!isBuiltinPlugin(id))
      await (await import('./load-plugin.js')).loadPluginModule(id, options ?? {}, baseDir, KNOWN_PLUGINS);
  }
  return listErrorCodes();
}
