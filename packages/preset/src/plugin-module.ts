/**
 * The shape of a plugin module named under `plugins` (what it exports, what it may ask of the host): declared apart
 * from the loader (`load-plugin.ts`), so importing the preset does not load the loader's resolver and semver.
 */

/** What a plugin module exports (see the kernel README, "Publish your plugin"). */
export interface PluginModule {
  /** The factory: `(options) => KernelPlugin` (or a promise of one). `plugin` is accepted when there is no default export. */
  readonly default?: unknown;
  readonly plugin?: unknown;
  /** JSON Schema of the options; without it the plugin takes no options. */
  readonly optionsSchema?: unknown;
  /** Semver range of `@tool-search/kernel` it works with; else its package.json peer (or plain) dependency on the kernel. */
  readonly kernelRange?: unknown;
  /**
   * Opt-in: what the module wants from the host (`['provider']`). Only a module that exports `wants` gets a second
   * factory argument, a {@link PluginModuleHost} holding exactly what it asked for; every other module's factory is
   * called with its options alone, as before.
   */
  readonly wants?: unknown;
}

/** What a host can hand a plugin module that asks for it in `wants`. */
export const PLUGIN_MODULE_WANTS = ['provider'] as const;
export type PluginModuleWant = (typeof PLUGIN_MODULE_WANTS)[number];

/** The second factory argument of a module that exports `wants`: only the keys it asked for (absent when not configured). */
export interface PluginModuleHost {
  /** The config's top-level `provider` (`kind`, `baseURL`, `model`, `apiKey`, `apiKeyEnv`), so it is configured once. */
  readonly provider?: Readonly<{
    kind?: 'openai' | 'anthropic';
    baseURL: string;
    model: string;
    apiKey?: string;
    apiKeyEnv?: string;
  }>;
}
