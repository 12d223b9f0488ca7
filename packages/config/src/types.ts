/**
 * Types of `tool-search.json`. Kept by hand next to `schema.ts`; the OpenClaw
 * keys we accept but ignore come from the same constant lists as the schema.
 */
import type { McpServersEntry } from './mcp-servers-schema.js';
import type { ToolSearchMode } from './modes.js';
import type { OPENCLAW_AGENT_KEYS, OPENCLAW_AGENT_TOOLS_KEYS, OPENCLAW_TOOLS_KEYS } from './schema.js';

export type ToolProfile = 'minimal' | 'coding' | 'messaging' | 'full';

export type ToolPolicyLists = {
  allow?: string[];
  /** OpenClaw: entries merged into `allow` (or the profile's allowlist). */
  alsoAllow?: string[];
  deny?: string[];
};

export type ProviderToolPolicy = ToolPolicyLists & {
  profile?: ToolProfile;
  /** Overrides `tools.toolSearch` for this provider or provider/model. */
  toolSearch?: ToolSearchSetting;
};

export type SandboxToolPolicy = {
  tools?: ToolPolicyLists;
};

export type LoopDetectionConfig = {
  enabled?: boolean;
  warningThreshold?: number;
  criticalThreshold?: number;
  globalCircuitBreakerThreshold?: number;
  historySize?: number;
  detectors?: { genericRepeat?: boolean; knownPollNoProgress?: boolean; pingPong?: boolean };
};

export type { ToolSearchMode };

export type ToolSearchOptions = {
  enabled?: boolean;
  mode?: ToolSearchMode;
  codeTimeoutMs?: number;
  searchDefaultLimit?: number;
  maxSearchLimit?: number;
  /** Catalog tools that stay directly visible next to the search tools. */
  visible?: string[];
  directoryBudgetChars?: number;
  /** Pre-started code sandboxes: `true` = 1, a number = that many. */
  warmPool?: boolean | number;
  /** Code-mode sandbox backend (default "process"; the gateway's default is "quickjs"); falls back process → quickjs → tools mode. */
  sandbox?: 'process' | 'quickjs';
  /** Code runs at once; more wait in a queue (default 4, at most 64). */
  maxConcurrent?: number;
  /** Hybrid ranking: an OpenAI-compatible embeddings endpoint (`@tool-search/plugin-embeddings` options). */
  embeddings?: EmbeddingsConfig;
  /** Appended to the search tool's description (`tool_search`, `tool_search_code`) in every mode: what this catalog holds, when to search. At most 2,000 characters. */
  description?: string;
  /** Learning from the deployment's calls (top-level `tools.toolSearch` only; on by default). */
  learning?: boolean | LearningConfig;
  /** Directory mode (top-level only): likely-needed tools shown for the turn (0–20, default 5; 0 off) and the directory's size in characters. */
  directory?: { turnTools?: number; budgetChars?: number };
  /** Direct mode (top-level only): characters of the readable tool list in the system prompt (default 4000; 0 sends none). */
  direct?: { budgetChars?: number };
};

/**
 * `tools.toolSearch.learning`: the options of `@tool-search/plugin-learning` (see its README). On by default;
 * `false` or `{ enabled: false }` turns it off. Only the top-level `tools.toolSearch` takes it.
 */
export type LearningConfig = {
  enabled?: boolean;
  /** Whose calls teach whose searches: each agent its own (default) or the whole deployment. */
  scope?: 'agent' | 'deployment';
  halfLifeDays?: number;
  maxEntries?: number;
  minCalls?: number;
  weight?: number;
};

/** `tools.toolSearch.embeddings`: the options of `@tool-search/plugin-embeddings` (see its README). */
export type EmbeddingsConfig = {
  baseURL: string;
  model: string;
  apiKey?: string;
  dimensions?: number;
  cacheDir?: string;
  batchSize?: number;
  timeoutMs?: number;
  indexWaitMs?: number;
  fusion?: 'rrf' | 'dense';
  rrfK?: number;
  denseWeight?: number;
};

export type ToolSearchSetting = boolean | ToolSearchOptions;

export type ApprovalsConfig = {
  /** Tool names, ids or patterns whose calls need an approval. */
  require?: string[];
  timeoutMs?: number;
  /** Tools annotated `destructiveHint: true` need an approval. */
  requireDestructive?: boolean;
};

export type ToolPolicyFields = ProviderToolPolicy & {
  /** Keyed by provider id or `provider/model`. */
  byProvider?: Record<string, ProviderToolPolicy>;
  sandbox?: SandboxToolPolicy;
  loopDetection?: LoopDetectionConfig;
};

export type ToolsConfig = ToolPolicyFields & {
  toolSearch?: ToolSearchSetting;
  approvals?: ApprovalsConfig;
  /** Tool ids or names whose full schema stays visible in every search mode (policy still applies). */
  alwaysVisible?: string[];
} & Partial<Record<(typeof OPENCLAW_TOOLS_KEYS)[number], unknown>> &
  CoreToolsConfig;

/** `tools.exec` keys the core exec tools act on (OpenClaw's other exec keys are accepted as they are). */
export type ExecToolsConfig = {
  host?: 'sandbox' | 'gateway' | 'node';
  security?: 'deny' | 'allowlist' | 'full';
  ask?: 'off' | 'on-miss' | 'always';
  allowlist?: string[];
  timeoutSec?: number;
  yieldMs?: number;
  env?: Record<string, string>;
  applyPatch?: { enabled?: boolean; workspaceOnly?: boolean; [key: string]: unknown };
  [key: string]: unknown;
};

export type ElevatedConfig = { enabled?: boolean; [key: string]: unknown };

export type CoreToolsConfig = { exec?: ExecToolsConfig; elevated?: ElevatedConfig };

export type AgentToolsConfig = ToolPolicyFields &
  Partial<Record<(typeof OPENCLAW_AGENT_TOOLS_KEYS)[number], unknown>> & { elevated?: ElevatedConfig };

export type AgentEntry = Partial<Record<(typeof OPENCLAW_AGENT_KEYS)[number], unknown>> & {
  id: string;
  default?: boolean;
  name?: string;
  workspace?: string;
  model?: string | { primary?: string; fallbacks?: string[] };
  tools?: AgentToolsConfig;
  /** OpenClaw's sandbox block: `mode` is acted on (sandbox-for.ts); its other keys are accepted as they are. */
  sandbox?: AgentSandboxConfig;
};

/** `off` (default): never sandboxed; `non-main`: every session but `main`; `all`: every session. */
export type SandboxMode = 'off' | 'non-main' | 'all';

export type AgentSandboxConfig = { mode?: SandboxMode; [key: string]: unknown };

export type AgentsConfig = {
  /** OpenClaw's agent defaults; accepted; `workspace` (the MCP servers' root) and `sandbox.mode` are acted on. */
  defaults?: { sandbox?: AgentSandboxConfig; [key: string]: unknown };
  list?: AgentEntry[];
};

export type McpServerConfig =
  | {
      command: string;
      args?: string[];
      env?: Record<string, string>;
      cwd?: string;
      timeoutMs?: number;
      protocol?: McpProtocolSetting;
      alwaysVisible?: McpAlwaysVisible;
    }
  | {
      url: string;
      headers?: Record<string, string>;
      auth?: McpOAuthSettings;
      timeoutMs?: number;
      protocol?: McpProtocolSetting;
      alwaysVisible?: McpAlwaysVisible;
    };

/** `mcp.servers.<name>.protocol`: plugin-mcp's protocol negotiation (`auto` by default). */
export type McpProtocolSetting = 'auto' | '2026-07-28' | '2025-11-25';

/** `mcp.servers.<name>.alwaysVisible`: `true` pins every tool of the server visible in every search mode, a list pins those tool names. */
export type McpAlwaysVisible = boolean | string[];

/** OAuth of an HTTP MCP server (`mcp.servers.<name>.auth`); see plugin-mcp's README. */
export type McpOAuthSettings = {
  clientId?: string;
  clientSecret?: string;
  clientSecretEnv?: string;
  clientMetadataUrl?: string;
  scope?: string;
  grant?: 'authorization_code' | 'client_credentials';
  redirectUrl?: string;
  clientName?: string;
  issuer?: string;
};

export type FakeCatalogOptions = {
  tools?: number;
  core?: boolean;
};

/** `plugins.core`: the real core tools in this folder (resolved against the config file's folder; default that folder). */
export type CorePluginOptions = { workspace?: string };

export type PluginsConfig = { 'fake-catalog'?: FakeCatalogOptions; core?: CorePluginOptions } & Record<
  string,
  Record<string, unknown> | undefined
>;

export type ProviderConfig = {
  /** Wire format: `openai` (Chat Completions, default) or `anthropic` (Messages API). */
  kind?: 'openai' | 'anthropic';
  /** OpenAI only: `chat` (Chat Completions, default) or `responses` (the Responses API: programmatic tool calling). */
  api?: 'chat' | 'responses';
  baseURL: string;
  apiKey?: string;
  /** Environment variable holding the API key (preferred over `apiKey`). */
  apiKeyEnv?: string;
  model: string;
  /** Anthropic only: prompt caching (breakpoints on the tools and system text, request-level `cache_control`); default `true`, `false` sends none. */
  promptCache?: boolean;
};

export type GatewayConfig = {
  host?: string;
  port?: number;
  auth?: { token?: string };
  sessions?: { dir?: string };
  /** `{ "<openai|anthropic>/<model glob>": { deferLoading?, toolSearch?, toolReference?, programmatic? } }`, checked by `@tool-search/gateway`. */
  capabilities?: Record<
    string,
    { deferLoading?: boolean; toolSearch?: boolean; toolReference?: boolean; programmatic?: boolean }
  >;
};

export type ToolSearchConfig = {
  $schema?: string;
  tools?: ToolsConfig;
  agents?: AgentsConfig;
  plugins?: PluginsConfig;
  /** `connectTimeoutMs`: how long each server may take to start and list its tools (default 8000 ms). */
  mcp?: { servers?: Record<string, McpServerConfig>; connectTimeoutMs?: number };
  /** Claude Desktop / Cursor / `.mcp.json` servers, verbatim; merged with `mcp.servers`. */
  mcpServers?: Record<string, McpServersEntry>;
  provider?: ProviderConfig;
  gateway?: GatewayConfig;
  session?: { logDir?: string; agentToAgent?: { maxPingPongTurns?: number } };
  /** OpenClaw's `commands`: `restart: false` refuses the gateway tool's `restart` (config writes then apply at the next start). */
  commands?: { restart?: boolean; [key: string]: unknown };
  /** API keys of `tool-search gateway` and `serve mcp --http` (`@tool-search/auth`). */
  auth?: AuthSectionConfig;
  /** The browser tool's options (`enabled`, `defaultProfile`, `executablePath`, `profiles`, `allowPrivate`…), checked by `@tool-search/plugin-browser`. */
  browser?: Record<string, unknown>;
  /** OpenClaw's `cron` block; `minIntervalMs` (default 60000) and `maxJobsPerAgent` (default 100) are checked by `@tool-search/plugin-cron`. */
  cron?: { minIntervalMs?: unknown; maxJobsPerAgent?: unknown; [key: string]: unknown };
  /** Shared state across gateway / `serve mcp` replicas (`@tool-search/state`); in-process without `redis`. */
  state?: StateSectionConfig;
  telemetry?: TelemetrySectionConfig;
};

export type AuthSectionConfig = {
  /** Each key: `hash` (`sha256:<hex>`) or `env` (variable with the plain key), and the agents it may act as (`"*"`: any). */
  keys?: { name?: string; hash?: string; env?: string; agents: string[] }[];
};

export type StateSectionConfig = {
  /** `url`: `redis://host:port[/db]` or `rediss://`; keys start with `keyPrefix` (default `tool-search:`). */
  redis?: { url: string; keyPrefix?: string; commandTimeoutMs?: number };
  /** This replica's id (default `TOOL_SEARCH_REPLICA_ID`, else `<hostname>-<pid>`). */
  replicaId?: string;
};

export type TelemetrySectionConfig = {
  /** OpenTelemetry export over OTLP/HTTP: `endpoint` is the collector's base URL (traces to `/v1/traces`, metrics to `/v1/metrics`). */
  otlp?: {
    endpoint: string;
    headers?: Record<string, string>;
    exportIntervalMs?: number;
    serviceName?: string;
    timeoutMs?: number;
  };
};

export type ResolvedToolSearch = {
  enabled: boolean;
  /** `direct` when tool search is disabled. */
  mode: ToolSearchMode | 'direct';
  codeTimeoutMs: number;
  searchDefaultLimit: number;
  maxSearchLimit: number;
  visible: string[];
  directoryBudgetChars: number | undefined;
  /** Number of pre-started code sandboxes (0 = none). */
  warmPool: number;
  sandbox: 'process' | 'quickjs';
  maxConcurrent: number;
  /** Set when hybrid ranking is configured. */
  embeddings?: EmbeddingsConfig;
  /** The operator's extension of the search tool's description (trimmed); absent when none or blank. */
  description?: string;
  /** `tools.toolSearch.learning` as an object (`false` → `{ enabled: false }`), when set. */
  learning?: LearningConfig;
  /** Directory mode's options that are set (`budgetChars` from `directory.budgetChars`, else `directoryBudgetChars`). */
  directory: { turnTools?: number; budgetChars?: number };
  /** Direct mode's options that are set. */
  direct: { budgetChars?: number };
};

export type ResolvedToolsConfig = Omit<ToolsConfig, 'toolSearch'> & { toolSearch: ResolvedToolSearch };

/** The config with every section present and `tools.toolSearch` resolved. */
export type ResolvedConfig = Omit<ToolSearchConfig, 'tools' | 'agents' | 'mcp'> & {
  tools: ResolvedToolsConfig;
  agents: AgentsConfig;
  mcp: { servers: Record<string, McpServerConfig> };
};

/** One schema violation: JSON-pointer path and the broken rule. */
export type ConfigIssue = {
  path: string;
  rule: string;
  message: string;
};
