/**
 * The composition the CLI runs: a config becomes a kernel with the policy and
 * the tool sources. Same API as `@tool-search/preset` (`{ kernel, toolSearch }`),
 * so switching to that package is a one-line change once it builds.
 */
import { ConfigError, createKernel, type Kernel, type KernelPlugin, type Logger } from '@tool-search/kernel';
import { resolveToolSearch, type ResolvedToolSearch, type ToolSearchConfig } from '@tool-search/config';
import { policyPlugin } from '@tool-search/policy';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';

/** The built-in source when the config names no plugins and no MCP servers. */
export const DEFAULT_FAKE_CATALOG = Object.freeze({ tools: 1000, core: true });

/** Plugin ids usable under `plugins` in the config; add a source here. */
export const SOURCE_PLUGINS: Readonly<Record<string, (options: Record<string, unknown>) => KernelPlugin>> = Object.freeze({
  'fake-catalog': (options: { tools?: number; core?: boolean }) => fakeCatalogPlugin({ ...DEFAULT_FAKE_CATALOG, ...options }),
});

export interface PresetOptions {
  /** Extra plugins appended after the preset's own. */
  readonly plugins?: readonly KernelPlugin[];
  readonly logger?: Logger;
}

export interface Preset {
  readonly kernel: Kernel;
  /** The resolved `tools.toolSearch` (mode `direct` when disabled). */
  readonly toolSearch: ResolvedToolSearch;
}

export async function createToolSearchKernel(config: ToolSearchConfig, options: PresetOptions = {}): Promise<Preset> {
  const toolSearch = resolveToolSearch(config.tools?.toolSearch);
  const plugins: KernelPlugin[] = [policyPlugin({ tools: config.tools ?? {}, agents: config.agents ?? {} }), ...sources(config), ...(options.plugins ?? [])];
  const kernel = createKernel({ plugins, ...(options.logger ? { logger: options.logger } : {}) });
  return { kernel, toolSearch };
}

function sources(config: ToolSearchConfig): KernelPlugin[] {
  const configured = Object.entries(config.plugins ?? {});
  const hasMcp = Object.keys(config.mcp?.servers ?? {}).length > 0;
  if (configured.length === 0 && !hasMcp) return [fakeCatalogPlugin(DEFAULT_FAKE_CATALOG)];
  return configured.map(([id, options]) => {
    const factory = SOURCE_PLUGINS[id];
    if (!factory) {
      throw new ConfigError(`/plugins/${id}`, 'knownPlugin', `Unknown plugin "${id}" under plugins; known plugins: ${Object.keys(SOURCE_PLUGINS).join(', ')}`, {
        details: { plugin: id, known: Object.keys(SOURCE_PLUGINS) },
      });
    }
    return factory(options ?? {});
  });
}
