/**
 * The composition every front end shares (CLI, gateway, e2e, bench, MCP
 * server): a resolved `tool-search.json` becomes a kernel with the policy,
 * the sources, the exposure modes, the guards and telemetry. Nothing here
 * has behaviour of its own; it only decides which plugins to register.
 */
import { pathToFileURL } from 'node:url';
import { createKernel, type Kernel, type KernelPlugin, type Logger } from '@tool-search/kernel';
import {
  actedWorkspaces,
  mcpPinsOf,
  mcpServersOf,
  resolveToolSearch,
  type ToolSearchConfig,
} from '@tool-search/config';
import { alwaysVisiblePlugin } from './pins.js';
import { capabilityInstalled, OPTIONAL_CAPABILITIES, requireCapability } from './capabilities.js';
import { policyPlugin } from '@tool-search/policy';
import type { McpDownstream, McpPlugin, McpPluginOptions, McpServerStatus } from '@tool-search/plugin-mcp';
import { clientToolsPlugin } from '@tool-search/plugin-client-tools';
import { toolsModePlugin } from '@tool-search/mode-tools';
import { nativeModePlugin } from '@tool-search/mode-native';
import { directModeTextPlugin } from '@tool-search/mode-direct';
import { directoryModePlugin } from '@tool-search/mode-directory';
import { codeModePlugin } from '@tool-search/mode-code';
import { telemetryPlugin } from '@tool-search/telemetry';
import { loopDetectionPlugin } from '@tool-search/plugin-loop-detection';
import { approvalsPlugin, type Approver } from '@tool-search/plugin-approvals';
import { BUILTIN_PLUGINS, isBuiltinPlugin, type BuiltinContext } from './builtins.js';
import { checkConfigWorkspaces } from './workspace-guard.js';
import type { LoadedPluginModule } from './load-plugin.js';
import { gatewayPagesOf, type GatewayPages } from './plugin-module.js';
import { learningPlugin } from '@tool-search/plugin-learning';
import type { SessionHost } from '@tool-search/sessions';
import type { StateStore } from '@tool-search/state';
import type { GatewayControl } from '@tool-search/plugin-gateway';

/** Built-in plugin ids usable under `plugins`; any other key there is a plugin module to load. */
export const KNOWN_PLUGINS: readonly string[] = Object.freeze(Object.keys(BUILTIN_PLUGINS));

export interface PresetOptions {
  /** Folder for JSONL session logs (telemetry); overrides `session.logDir`. */
  readonly sessionLogDir?: string;
  /** Answers approval requests (`tools.approvals`), e.g. `new ApprovalQueue().approve`; without it (or `null`), calls that need approval are denied, saying no approver is configured. */
  readonly approve?: Approver | null;
  /** Extra plugins appended after the preset's own (they may `dependsOn` preset plugins). */
  readonly plugins?: readonly KernelPlugin[];
  /** Plugins that only watch (the front end's metrics), appended last; unlike `plugins` they keep the demo catalog. */
  readonly observers?: readonly KernelPlugin[];
  readonly logger?: Logger;
  /** Called when a downstream MCP server announces a changed tool list (the MCP server front end re-lists at once). */
  readonly onMcpToolsChanged?: (server: string) => void;
  /** Folder that plugin modules under `plugins` (package names, `./paths`) resolve from: the config file's folder. Default `process.cwd()`. */
  readonly baseDir?: string;
  /** MCP client side: OAuth token store (default: files in the state folder), login authorizer, sampling/elicitation handlers. */
  readonly mcpClient?: Pick<McpPluginOptions, 'tokenStore' | 'authorizer' | 'handlers'>;
  /** The gateway's sessions (`createSessionHost`): given only where a gateway runs turns, it lists the session tools under `plugins.core`. */
  readonly sessionHost?: SessionHost;
  /** With `sessionHost`: the folder cron jobs persist in (`jobs.json`, `runs/`); lists the `cron` tool under `plugins.core`. */
  readonly cronDir?: string;
  /** The running gateway's control (`tool-search gateway` only): lists the `gateway` tool under `plugins.core`. */
  readonly gateway?: GatewayControl;
  /**
   * Code mode's sandbox when the config names none (`tools.toolSearch.sandbox`). The gateway passes `quickjs`: under
   * concurrent sessions it keeps code mode at tools mode's throughput, where a process per run does not (BENCHMARKS §10).
   */
  readonly defaultSandbox?: 'process' | 'quickjs';
  /** Shared state (`@tool-search/state`, from the config's `state` block): replicas share loop detection, cron locks, telemetry counters and what search learned from calls through it. Default: in-process. */
  readonly state?: StateStore;
}

export interface Preset {
  readonly kernel: Kernel;
  /** The built-in demo catalog is the only source (nothing else configured): front ends say so once. */
  readonly demoCatalog: boolean;
  /** The resolved `tools.toolSearch` (mode `direct` when disabled). */
  readonly toolSearch: ReturnType<typeof resolveToolSearch>;
  /** The plugin modules `plugins` in the config loaded, with the file each came from (built-in ids are not listed). */
  readonly modules: readonly LoadedPluginModule[];
  /** The MCP servers' resources, prompts, logging and forwarding (when any are configured), for `serve mcp`. */
  readonly mcpDownstream?: McpDownstream;
  /** Each configured MCP server's state now (connected, failed, protocol version, last error), for `inspect`'s live view. */
  readonly mcpServers?: () => readonly McpServerStatus[];
  /** The read-only pages plugins serve through the gateway (e.g. the diffs viewer); other front ends ignore them. */
  readonly gatewayPages: readonly GatewayPages[];
}

export async function createToolSearchKernel(config: ToolSearchConfig, options: PresetOptions = {}): Promise<Preset> {
  const toolSearch = resolveToolSearch(config.tools?.toolSearch);
  const { sources, modules } = await configSources(config, options);
  // `tools.toolSearch.description` reaches the search tool of every mode; a run's `searchDescription` (an agent's) wins.
  const description = toolSearch.description ? { description: toolSearch.description } : {};
  const mcp = sources.find((plugin): plugin is McpPlugin => 'downstream' in plugin);
  // Imported when configured: the embeddings plugin brings the OpenAI client.
  if (toolSearch.embeddings) requireCapability(OPTIONAL_CAPABILITIES.embeddings, 'tools.toolSearch.embeddings');
  const embeddings = toolSearch.embeddings
    ? [(await import('@tool-search/plugin-embeddings')).embeddingsPlugin(toolSearch.embeddings)]
    : [];
  const plugins: KernelPlugin[] = [
    policyPlugin({ tools: config.tools ?? {}, agents: config.agents ?? {} }),
    ...sources,
    clientToolsPlugin(),
    ...embeddings,
    // Learning from the deployment's calls: on unless `tools.toolSearch.learning` is false; shares `state` with replicas.
    ...(toolSearch.learning?.enabled === false
      ? []
      : [learningPlugin({ ...toolSearch.learning, ...(options.state ? { state: options.state } : {}) })]),
    toolsModePlugin({
      searchDefaultLimit: toolSearch.searchDefaultLimit,
      maxSearchLimit: toolSearch.maxSearchLimit,
      ...description,
    }),
    nativeModePlugin({ maxSearchLimit: toolSearch.maxSearchLimit }),
    // `tools.toolSearch.direct` / `.directory`: the modes' own options (checked by their schemas in the config).
    directModeTextPlugin(toolSearch.direct),
    directoryModePlugin({
      searchDefaultLimit: toolSearch.searchDefaultLimit,
      maxSearchLimit: toolSearch.maxSearchLimit,
      ...(toolSearch.visible ? { visible: toolSearch.visible } : {}),
      ...toolSearch.directory,
      ...description,
    }),
    codeModePlugin({
      codeTimeoutMs: toolSearch.codeTimeoutMs,
      searchDefaultLimit: toolSearch.searchDefaultLimit,
      maxSearchLimit: toolSearch.maxSearchLimit,
      warmPool: toolSearch.warmPool ?? 0,
      sandbox: configuredSandbox(config) ?? options.defaultSandbox ?? toolSearch.sandbox,
      maxConcurrent: toolSearch.maxConcurrent,
      ...description,
    }),
    // `tools.alwaysVisible` and `mcp.servers.<name>.alwaysVisible`: pinned tools keep their schema visible in every search mode.
    ...pinsPlugin(config),
    loopDetectionPlugin({ tools: config.tools ?? {}, agents: config.agents ?? {}, state: options.state }),
    approvalsPlugin({ config: config.tools?.approvals ?? {}, approve: options.approve ?? null }),
    telemetryPlugin({
      // Token counts need the tokenizer (an optional package): without it the log says null, and nothing warns per request.
      ...(capabilityInstalled(OPTIONAL_CAPABILITIES.tokenizer) ? {} : { tokenizer: false as const }),
      ...((options.sessionLogDir ?? config.session?.logDir)
        ? { sessionLog: { dir: (options.sessionLogDir ?? config.session?.logDir)! } }
        : {}),
      ...(options.state ? { state: options.state } : {}),
    }),
    ...(options.plugins ?? []),
    ...(options.observers ?? []),
  ];
  // A source may take as long as the MCP connect budget the config grants, plus the time to hand its tools over.
  const connectTimeoutMs = config.mcp?.connectTimeoutMs;
  const sourceTimeoutMs =
    connectTimeoutMs !== undefined ? { sourceTimeoutMs: Math.max(10_000, connectTimeoutMs + 2_000) } : {};
  const kernel = createKernel({ plugins, ...sourceTimeoutMs, ...(options.logger ? { logger: options.logger } : {}) });
  return {
    kernel,
    toolSearch,
    modules,
    gatewayPages: sources.flatMap((plugin) => gatewayPagesOf(plugin) ?? []),
    demoCatalog: usesDemoCatalog(config, options),
    ...(mcp ? { mcpDownstream: mcp.downstream, mcpServers: () => mcp.servers() } : {}),
  };
}

function pinsPlugin(config: ToolSearchConfig): KernelPlugin[] {
  const tools = config.tools?.alwaysVisible ?? [];
  const servers = mcpPinsOf(config);
  return tools.length || Object.keys(servers).length ? [alwaysVisiblePlugin({ tools, servers })] : [];
}

/** The one-line notice front ends print when `demoCatalog` is true. */
export const DEMO_CATALOG_NOTICE =
  'using the built-in demo catalog (25 fake core tools + 1,000 fake plugin tools); see README';

/**
 * The fake catalog is the default only when nothing else is configured: not with a `plugins` section (even
 * `plugins: {}`), not with MCP servers, not when the composer passes plugins of its own.
 */
export function usesDemoCatalog(config: ToolSearchConfig, options: Pick<PresetOptions, 'plugins'> = {}): boolean {
  const servers = { ...config.mcp?.servers, ...config.mcpServers };
  return config.plugins === undefined && Object.keys(servers).length === 0 && !options.plugins?.length;
}

/**
 * The sources from `plugins` (built-in ids and modules, in config order) and
 * the MCP servers (`mcp.servers`, `mcpServers`); the demo catalog when nothing else is configured (`usesDemoCatalog`).
 */
async function configSources(
  config: ToolSearchConfig,
  options: PresetOptions,
): Promise<{ sources: KernelPlugin[]; modules: LoadedPluginModule[] }> {
  const sources: KernelPlugin[] = [];
  const modules: LoadedPluginModule[] = [];
  // Before any module loads: the workspace agents write holds nothing the gateway runs or reads next.
  await checkConfigWorkspaces(config, options);
  const entries = Object.entries(config.plugins ?? {});
  for (const [id, pluginOptions] of entries) {
    if (isBuiltinPlugin(id)) {
      sources.push(...[await BUILTIN_PLUGINS[id]!.create(pluginOptions ?? {}, config, builtinContext(options))].flat());
      continue;
    }
    // Handed only to modules that export `wants: ['provider']` (see loadPluginModule).
    const host = config.provider ? { provider: { ...config.provider } } : {};
    // Loaded only for a plugin module (it brings a module resolver and semver): built-in plugins start without it.
    const { loadPluginModule } = await import('./load-plugin.js');
    const { plugin, loaded } = await loadPluginModule(
      id,
      pluginOptions ?? {},
      options.baseDir ?? process.cwd(),
      KNOWN_PLUGINS,
      host,
    );
    sources.push(plugin);
    modules.push(loaded);
  }
  const servers = mcpServersOf(config);
  // The demo includes the README's headline tool (a GitHub-style create_issue) among its 1,000 plugin tools.
  if (usesDemoCatalog(config, options))
    sources.push(...[await BUILTIN_PLUGINS['fake-catalog']!.create({ demoTools: true }, config)].flat());
  if (Object.keys(servers).length) {
    // Imported when a server is configured: the MCP SDK is not loaded for a catalog without one.
    const { defaultStateDir, fileTokenStore, mcpPlugin } = await import('@tool-search/plugin-mcp');
    sources.push(
      mcpPlugin({
        servers,
        ...(config.mcp?.connectTimeoutMs !== undefined ? { connectTimeoutMs: config.mcp.connectTimeoutMs } : {}),
        ...(options.onMcpToolsChanged ? { onToolsChanged: options.onMcpToolsChanged } : {}),
        tokenStore: fileTokenStore(defaultStateDir()),
        ...options.mcpClient,
        ...mcpRoots(config, options.baseDir ?? process.cwd()),
      }),
    );
  }
  return { sources, modules };
}

function builtinContext(options: PresetOptions): BuiltinContext {
  return {
    ...(options.sessionHost ? { sessionHost: options.sessionHost } : {}),
    ...(options.cronDir ? { cronDir: options.cronDir } : {}),
    ...(options.state ? { state: options.state } : {}),
    ...(options.gateway ? { gateway: options.gateway } : {}),
    ...(options.baseDir ? { baseDir: options.baseDir } : {}),
  };
}

/**
 * The workspace, offered to MCP servers as their root: the core tools' `plugins.core.workspace` (or its default),
 * else OpenClaw's `agents.defaults.workspace` (relative paths from the config's folder).
 */
function mcpRoots(config: ToolSearchConfig, baseDir: string): Pick<McpPluginOptions, 'roots'> {
  const [workspace] = actedWorkspaces(config, baseDir);
  return workspace ? { roots: [{ uri: pathToFileURL(workspace.path).href, name: 'workspace' }] } : {};
}

/** The sandbox the config itself names, if any (resolution fills in the default, which a front end may override). */
function configuredSandbox(config: ToolSearchConfig): 'process' | 'quickjs' | undefined {
  const toolSearch = config.tools?.toolSearch;
  return typeof toolSearch === 'object' && toolSearch !== null ? toolSearch.sandbox : undefined;
}
