/**
 * Plugin ids that need no module: `plugins: { "<id>": options }` in the config
 * builds these from the packages the preset ships. Their options are checked
 * by the config schema. Adding one is one line here (plus its schema entry in
 * `@tool-search/config`); every other key under `plugins` is a module to load.
 */
import type { KernelPlugin } from '@tool-search/kernel';
import type { PluginsConfig, ToolSearchConfig } from '@tool-search/config';
import type { SessionHost } from '@tool-search/sessions';
import type { StateStore } from '@tool-search/state';
import type { GatewayControl } from '@tool-search/plugin-gateway';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';

export const DEFAULT_FAKE_CATALOG = { tools: 1000, core: true } as const;

export interface BuiltinPlugin {
  /** One plugin, or several for an id that stands for a set (`core`). */
  create(
    options: Record<string, unknown>,
    config: ToolSearchConfig,
    context?: BuiltinContext,
  ): KernelPlugin | readonly KernelPlugin[] | Promise<KernelPlugin | readonly KernelPlugin[]>;
}

/** What the composer has beyond the config: the gateway's session host, where a gateway runs turns. */
export interface BuiltinContext {
  readonly sessionHost?: SessionHost;
  /** The folder for cron jobs (with `sessionHost`, the `cron` tool is listed). */
  readonly cronDir?: string;
  /** Shared state: cron jobs and locks, background-session owners. */
  readonly state?: StateStore;
  /** The running gateway's control: the `gateway` tool is listed. */
  readonly gateway?: GatewayControl;
  /** The config file's folder: the default workspace is `workspace` in it. */
  readonly baseDir?: string;
}

/** `demoTools`: the demo catalog's example tools (set by the preset for the demo, not a config key). */
type FakeCatalogOptions = NonNullable<PluginsConfig['fake-catalog']> & { demoTools?: boolean };

export const BUILTIN_PLUGINS: Readonly<Record<string, BuiltinPlugin>> = Object.freeze({
  'fake-catalog': {
    create: (options: FakeCatalogOptions) =>
      fakeCatalogPlugin({
        tools: options.tools ?? DEFAULT_FAKE_CATALOG.tools,
        core: options.core ?? DEFAULT_FAKE_CATALOG.core,
        demoTools: options.demoTools === true,
      }),
  },
  // The real core tools; a config error together with the fake catalog's core tools (same ids).
  // Imported when configured: the core tools bring HTTP, HTML, PDF and image libraries nobody else needs.
  core: {
    create: async (options: { workspace?: string }, config, context) =>
      (await import('./core-tools.js')).coreToolPlugins(
        options,
        config,
        config.plugins?.['fake-catalog'] !== undefined &&
          (config.plugins['fake-catalog'].core ?? DEFAULT_FAKE_CATALOG.core),
        context,
      ),
  },
});

export function isBuiltinPlugin(id: string): boolean {
  return Object.hasOwn(BUILTIN_PLUGINS, id);
}
