/**
 * The composition every front end shares (CLI, gateway, e2e, bench, MCP
 * server): a resolved `tool-search.json` becomes a kernel with the policy,
 * the sources, the exposure modes, the guards and telemetry. Nothing here
 * has behaviour of its own; it only decides which plugins to register.
 */
import { createKernel, type Kernel, type KernelPlugin, type Logger } from '@tool-search/kernel';
import { mcpServersOf, resolveToolSearch, type ToolSearchConfig } from '@tool-search/config';
import { policyPlugin } from '@tool-search/policy';
import { mcpPlugin, type McpDownstream, type McpPlugin } from '@tool-search/plugin-mcp';
import { clientToolsPlugin } from '@tool-search/plugin-client-tools';
import { toolsModePlugin } from '@tool-search/mode-tools';
import { directoryModePlugin } from '@tool-search/mode-directory';
import { codeModePlugin } from '@tool-search/mode-code';
import { telemetryPlugin } from '@tool-search/telemetry';
import { loopDetectionPlugin } from '@tool-search/plugin-loop-detection';
import { approvalsPlugin, type Approver } from '@tool-search/plugin-approvals';
import { BUILTIN_PLUGINS, isBuiltinPlugin } from './builtins.js';
import { loadPluginModule, type LoadedPluginModule } from './load-plugin.js';

/** Built-in plugin ids usable under `plugins`; any other key there is a plugin module to load. */
export const KNOWN_PLUGINS: readonly string[] = Object.freeze(Object.keys(BUILTIN_PLUGINS));

export interface PresetOptions {
  /** Folder for JSONL session logs (telemetry); overrides `session.logDir`. */
  readonly sessionLogDir?: string;
  /** Answers approval requests (`tools.approvals`), e.g. `new ApprovalQueue().approve`; without it (or `null`), calls that need approval are denied, saying no approver is configured. */
  readonly approve?: Approver | null;
  /** Extra plugins appended after the preset's own (they may `dependsOn` preset plugins). */
  readonly plugins?: readonly KernelPlugin[];
  readonly logger?: Logger;
  /** Called when a downstream MCP server announces a changed tool list (the MCP server front end re-lists at once). */
  readonly onMcpToolsChanged?: (server: string) => void;
  /** Folder that plugin modules under `plugins` (package names, `./paths`) resolve from: the config file's folder. Default `process.cwd()`. */
  readonly baseDir?: string;
}

export interface Preset {
  readonly kernel: Kernel;
  /** The resolved `tools.toolSearch` (mode `direct` when disabled). */
  readonly toolSearch: ReturnType<typeof resolveToolSearch>;
  /** The plugin modules `plugins` in the config loaded, with the file each came from (built-in ids are not listed). */
  readonly modules: readonly LoadedPluginModule[];
  /** The MCP servers' resources, prompts, logging and forwarding (when any are configured), for `serve mcp`. */
  readonly mcpDownstream?: McpDownstream;
}

export async function createToolSearchKernel(config: ToolSearchConfig, options: PresetOptions = {}): Promise<Preset> {
  const toolSearch = resolveToolSearch(config.tools?.toolSearch);
  const { sources, modules } = await configSources(config, options);
  const plugins: KernelPlugin[] = [
    policyPlugin({ tools: config.tools ?? {}, agents: config.agents ?? {} }),
    ...sources,
    clientToolsPlugin(),
    toolsModePlugin({ searchDefaultLimit: toolSearch.searchDefaultLimit, maxSearchLimit: toolSearch.maxSearchLimit }),
    directoryModePlugin({
      searchDefaultLimit: toolSearch.searchDefaultLimit,
      maxSearchLimit: toolSearch.maxSearchLimit,
      ...(toolSearch.visible ? { visible: toolSearch.visible } : {}),
      ...(toolSearch.directoryBudgetChars ? { budgetChars: toolSearch.directoryBudgetChars } : {}),
    }),
    codeModePlugin({
      codeTimeoutMs: toolSearch.codeTimeoutMs,
      searchDefaultLimit: toolSearch.searchDefaultLimit,
      maxSearchLimit: toolSearch.maxSearchLimit,
      warmPool: toolSearch.warmPool ?? 0,
    }),
    loopDetectionPlugin({ tools: config.tools ?? {}, agents: config.agents ?? {} }),
    approvalsPlugin({ config: config.tools?.approvals ?? {}, approve: options.approve ?? null }),
    telemetryPlugin({
      ...(options.sessionLogDir ?? config.session?.logDir ? { sessionLog: { dir: (options.sessionLogDir ?? config.session?.logDir)! } } : {}),
    }),
    ...(options.plugins ?? []),
  ];
  const kernel = createKernel({ plugins, ...(options.logger ? { logger: options.logger } : {}) });
  const mcp = sources.find((plugin): plugin is McpPlugin => 'downstream' in plugin);
  return { kernel, toolSearch, modules, ...(mcp ? { mcpDownstream: mcp.downstream } : {}) };
}

/**
 * The sources from `plugins` (built-in ids and modules, in config order) and
 * `mcp.servers` + `mcpServers`. With neither, the built-in default is the fake catalog.
 */
async function configSources(config: ToolSearchConfig, options: PresetOptions): Promise<{ sources: KernelPlugin[]; modules: LoadedPluginModule[] }> {
  const sources: KernelPlugin[] = [];
  const modules: LoadedPluginModule[] = [];
  const entries = Object.entries(config.plugins ?? {});
  for (const [id, pluginOptions] of entries) {
    if (isBuiltinPlugin(id)) {
      sources.push(BUILTIN_PLUGINS[id]!.create(pluginOptions ?? {}, config));
      continue;
    }
    const { plugin, loaded } = await loadPluginModule(id, pluginOptions ?? {}, options.baseDir ?? process.cwd(), KNOWN_PLUGINS);
    sources.push(plugin);
    modules.push(loaded);
  }
  const servers = mcpServersOf(config);
  if (entries.length === 0 && Object.keys(servers).length === 0) sources.push(BUILTIN_PLUGINS['fake-catalog']!.create({}, config));
  if (Object.keys(servers).length) sources.push(mcpPlugin({ servers, ...(options.onMcpToolsChanged ? { onToolsChanged: options.onMcpToolsChanged } : {}) }));
  return { sources, modules };
}
