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

/**
 * Read-only HTTP pages a plugin serves through the gateway (`plugin.gatewayPages`, e.g. the diffs viewer): the gateway
 * mounts `handle` behind its own Host/Origin, local-user and key checks, then tells the plugin where it listens.
 */
export interface GatewayPages {
  /** Answers and returns true, or returns false (not its path). */
  handle(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): boolean;
  /** The gateway's origin (`http://127.0.0.1:<port>`), once it listens: links are built on it. */
  bind(origin: string): void;
}

/** The plugin's `gatewayPages`, when it declares a usable one. */
export function gatewayPagesOf(plugin: object): GatewayPages | undefined {
  const pages = (plugin as { gatewayPages?: Partial<GatewayPages> }).gatewayPages;
  return typeof pages?.handle === 'function' && typeof pages.bind === 'function' ? (pages as GatewayPages) : undefined;
}
