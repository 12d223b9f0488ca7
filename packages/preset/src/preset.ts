/**
 * The composition every front end shares (CLI, gateway, e2e, bench, MCP
 * server): a resolved `tool-search.json` becomes a kernel with the policy,
 * the sources, the exposure modes, the guards and telemetry. Nothing here
 * has behaviour of its own; it only decides which plugins to register.
 */
import { ConfigError, createKernel, type Kernel, type KernelPlugin, type Logger } from '@tool-search/kernel';
import { mcpServersOf, resolveToolSearch, type ToolSearchConfig } from '@tool-search/config';
import { policyPlugin } from '@tool-search/policy';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';
import { mcpPlugin, type McpDownstream, type McpPlugin } from '@tool-search/plugin-mcp';
import { clientToolsPlugin } from '@tool-search/plugin-client-tools';
import { toolsModePlugin } from '@tool-search/mode-tools';
import { directoryModePlugin } from '@tool-search/mode-directory';
import { codeModePlugin } from '@tool-search/mode-code';
import { telemetryPlugin } from '@tool-search/telemetry';
import { loopDetectionPlugin } from '@tool-search/plugin-loop-detection';
import { approvalsPlugin, type Approver } from '@tool-search/plugin-approvals';

export const DEFAULT_FAKE_CATALOG = { tools: 1000, core: true } as const;

/** Plugin ids usable under `plugins` in the config (configs cannot load code; see `PresetOptions.plugins`). */
export const KNOWN_PLUGINS: readonly string[] = Object.freeze(['fake-catalog']);

export interface PresetOptions {
  /** Folder for JSONL session logs (telemetry); overrides `session.logDir`. */
  readonly sessionLogDir?: string;
  /** Answers approval requests (`tools.approvals`), e.g. `new ApprovalQueue().approve`; without it, calls that need approval are denied. */
  readonly approve?: Approver;
  /** Extra plugins appended after the preset's own (they may `dependsOn` preset plugins). */
  readonly plugins?: readonly KernelPlugin[];
  readonly logger?: Logger;
  /** Called when a downstream MCP server announces a changed tool list (the MCP server front end re-lists at once). */
  readonly onMcpToolsChanged?: (server: string) => void;
}

export interface Preset {
  readonly kernel: Kernel;
  /** The resolved `tools.toolSearch` (mode `direct` when disabled). */
  readonly toolSearch: ReturnType<typeof resolveToolSearch>;
  /** The MCP servers' resources, prompts, logging and forwarding (when any are configured), for `serve mcp`. */
  readonly mcpDownstream?: McpDownstream;
}

export async function createToolSearchKernel(config: ToolSearchConfig, options: PresetOptions = {}): Promise<Preset> {
  const toolSearch = resolveToolSearch(config.tools?.toolSearch);
  const sourcePlugins = sources(config, options);
  const mcp = sourcePlugins.find((plugin): plugin is McpPlugin => 'downstream' in plugin);
  const plugins: KernelPlugin[] = [
    policyPlugin({ tools: config.tools ?? {}, agents: config.agents ?? {} }),
    ...sourcePlugins,
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
    approvalsPlugin({ config: config.tools?.approvals ?? {}, approve: options.approve ?? (async () => 'deny') }),
    telemetryPlugin({
      ...(options.sessionLogDir ?? config.session?.logDir ? { sessionLog: { dir: (options.sessionLogDir ?? config.session?.logDir)! } } : {}),
    }),
    ...(options.plugins ?? []),
  ];
  const kernel = createKernel({ plugins, ...(options.logger ? { logger: options.logger } : {}) });
  return { kernel, toolSearch, ...(mcp ? { mcpDownstream: mcp.downstream } : {}) };
}

/** With no `plugins` and no MCP servers (`mcp.servers`, `mcpServers`) in the config, the built-in default is the fake catalog. */
function sources(config: ToolSearchConfig, options: PresetOptions): KernelPlugin[] {
  const out: KernelPlugin[] = [];
  for (const id of Object.keys(config.plugins ?? {})) {
    if (!KNOWN_PLUGINS.includes(id)) {
      throw new ConfigError(`/plugins/${id}`, 'knownPlugin', `Unknown plugin "${id}" under plugins; known plugins: ${KNOWN_PLUGINS.join(', ')}`, {
        details: { plugin: id, known: [...KNOWN_PLUGINS] },
      });
    }
  }
  const fake = config.plugins?.['fake-catalog'] as { tools?: number; core?: boolean } | undefined;
  const servers = mcpServersOf(config);
  const hasPlugins = config.plugins !== undefined && Object.keys(config.plugins).length > 0;
  if (fake || (!hasPlugins && Object.keys(servers).length === 0)) {
    out.push(fakeCatalogPlugin({ tools: fake?.tools ?? DEFAULT_FAKE_CATALOG.tools, core: fake?.core ?? DEFAULT_FAKE_CATALOG.core }));
  }
  if (Object.keys(servers).length) out.push(mcpPlugin({ servers, ...(options.onMcpToolsChanged ? { onToolsChanged: options.onMcpToolsChanged } : {}) }));
  return out;
}
