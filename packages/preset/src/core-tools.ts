/**
 * The built-in plugin id `core`: `plugins: { core: { workspace } }` turns on
 * the real core tools — files (`@tool-search/plugin-fs`), runtime
 * (`@tool-search/plugin-exec`), web (`@tool-search/plugin-web`, from
 * `tools.web`), memory (`@tool-search/plugin-memory`), PDF
 * (`@tool-search/plugin-pdf`) and browser (`@tool-search/plugin-browser`,
 * from `browser`) — configured from `tools.exec`,
 * `tools.elevated` and `agents.list`. Their ids (`core:core:read`, …) are the
 * fake catalog's core ids, so both together are a config error.
 */
import { ConfigError, type KernelPlugin } from '@tool-search/kernel';
import type { ToolSearchConfig } from '@tool-search/config';
import { fsPlugin } from '@tool-search/plugin-fs';
import { execPlugin } from '@tool-search/plugin-exec';
import { memoryPlugin } from '@tool-search/plugin-memory';
import type { PdfModelOptions } from '@tool-search/plugin-pdf';
import type { WebConfig } from '@tool-search/plugin-web';
import { MAX_PING_PONG_TURNS, sessionsPlugin, type AgentEntry } from '@tool-search/plugin-sessions';
import { cronPlugin } from '@tool-search/plugin-cron';
import type { BrowserConfig } from '@tool-search/plugin-browser';
import type { SessionHost, SessionRecord } from '@tool-search/sessions';
import { sessionCounters } from '@tool-search/telemetry';
import type { StateStore } from '@tool-search/state';
import { gatewayPlugin, type GatewayControl } from '@tool-search/plugin-gateway';
import { unavailableToolsPlugin } from './unavailable-tools.js';
import { coreWorkspace, hiddenFromSandbox } from './workspace-guard.js';
import {
  capabilityInstalled,
  missingCapabilitiesPlugin,
  OPTIONAL_CAPABILITIES,
  type CapabilityPackage,
  type MissingCoreTool,
} from './capabilities.js';

export const CORE_PLUGIN_ID = 'core';

/**
 * The core tool plugins for `plugins.core`. `fakeCore`: the fake catalog adds its core tools in this config.
 * `host.sessionHost`: a gateway runs turns here, so the session tools (`tools.sessions`, `agents.list`) are listed,
 * and `cron` too when `host.cronDir` says where its jobs persist.
 */
export async function coreToolPlugins(
  core: { workspace?: string },
  config: ToolSearchConfig,
  fakeCore: boolean,
  host: {
    sessionHost?: SessionHost;
    cronDir?: string;
    state?: StateStore;
    gateway?: GatewayControl;
    baseDir?: string;
  } = {},
): Promise<KernelPlugin[]> {
  if (fakeCore) {
    throw new ConfigError(
      '/plugins/core',
      'coreConflict',
      'plugins.core (the real core tools) and the fake catalog\'s core tools have the same ids; set plugins["fake-catalog"].core to false or remove one of them',
      { details: { plugin: CORE_PLUGIN_ID, conflictsWith: '/plugins/fake-catalog/core' } },
    );
  }
  // A folder of its own, never the config's (checked at start); a config built in code means the working folder's.
  const workspace = coreWorkspace(core.workspace, host.baseDir);
  const exec = config.tools?.exec;
  const optional = await optionalCoreTools(workspace, config);
  return [
    fsPlugin({ workspace, ...(exec?.applyPatch ? { applyPatch: exec.applyPatch } : {}) }),
    execPlugin({
      workspace,
      ...(exec ? { exec: withoutApplyPatch(exec) } : {}),
      ...(config.tools?.elevated ? { elevated: config.tools.elevated } : {}),
      agents: config.agents?.list ?? [],
      ...(host.state ? { state: host.state } : {}),
      // The config (API keys), session logs, cron and state stay unreadable to the sandboxed exec.
      hidden: hiddenFromSandbox(config, host.baseDir, host.cronDir),
    }),
    ...optional.web,
    memoryPlugin({ workspace }),
    ...optional.pdf,
    ...optional.browser,
    unavailableToolsPlugin(host.gateway !== undefined),
    ...optional.image,
    ...missingCapabilitiesPlugin(optional.missing),
    ...gatewayTools(config, host, workspace),
    // The gateway tool manages the gateway it runs in: listed only there.
    ...(host.gateway ? [gatewayPlugin({ control: host.gateway, restart: config.commands?.restart !== false })] : []),
  ];
}

/**
 * The core tools whose packages are optional peers of the preset (web, PDF, browser, image): loaded when installed,
 * else a diagnostic per tool naming the package to install.
 */
async function optionalCoreTools(workspace: string, config: ToolSearchConfig) {
  const missing: MissingCoreTool[] = [];
  const { web, pdf, browser, image } = OPTIONAL_CAPABILITIES;
  const load = async <T>(pkg: CapabilityPackage, tools: string[], make: () => Promise<T>): Promise<T[]> => {
    if (capabilityInstalled(pkg)) return [await make()];
    missing.push(...tools.map((tool) => ({ tool, pkg })));
    return [];
  };
  const imageOptions = imageTool(workspace, config);
  return {
    web: await load(web, ['web_fetch', 'web_search'], async () =>
      (await import('@tool-search/plugin-web')).webPlugin({ web: config.tools?.web as WebConfig | undefined }),
    ),
    pdf: await load(pdf, ['pdf'], async () =>
      (await import('@tool-search/plugin-pdf')).pdfPlugin({
        workspace,
        ...pdfLimits(config.agents?.defaults),
        ...pdfModel(config),
      }),
    ),
    browser: await load(browser, ['browser'], async () =>
      (await import('@tool-search/plugin-browser')).browserPlugin({
        browser: config.browser as BrowserConfig | undefined,
        workspace,
      }),
    ),
    // `image` is listed only with a model for it: without one there is nothing to install.
    image: imageOptions
      ? await load(image, ['image'], async () => (await import('@tool-search/plugin-image')).imagePlugin(imageOptions))
      : [],
    missing,
  };
}

/**
 * `image` with `agents.defaults.imageModel` (a string or `{ primary }`), else implicitly the main model
 * (`agents.defaults.model`, else `provider.model`: OpenAI's and Anthropic's chat models take images), when `provider`
 * has a key (`apiKey`, or the `apiKeyEnv` variable, else OPENAI_API_KEY / ANTHROPIC_API_KEY by `provider.kind`). A
 * prefix naming the provider (`openai/`, `anthropic/`) is dropped; a model of another provider is not this one's.
 * Image URLs follow web_fetch's address rule (`tools.web.fetch.allowPrivate`).
 */
function imageTool(workspace: string, config: ToolSearchConfig, env: NodeJS.ProcessEnv = process.env) {
  const defaults = config.agents?.defaults as { imageModel?: unknown } | undefined;
  const model = providerModel(config, modelName(defaults?.imageModel), env);
  if (!model) return undefined;
  const allowPrivate =
    (config.tools?.web as { fetch?: { allowPrivate?: unknown } } | undefined)?.fetch?.allowPrivate === true;
  return { workspace, ...model, allowPrivate };
}

/** The model that answers `pdf`'s prompt: `agents.defaults.pdfModel`, else the image model, else the main model (as `image`). */
function pdfModel(config: ToolSearchConfig, env: NodeJS.ProcessEnv = process.env): { model?: PdfModelOptions } {
  const defaults = config.agents?.defaults as { pdfModel?: unknown; imageModel?: unknown } | undefined;
  const model = providerModel(config, modelName(defaults?.pdfModel) ?? modelName(defaults?.imageModel), env);
  return model ? { model } : {};
}

/** `named` (else the main model) on the configured provider with its key, or nothing when either is missing. */
function providerModel(config: ToolSearchConfig, named: string | undefined, env: NodeJS.ProcessEnv) {
  const provider = config.provider;
  if (!provider) return undefined;
  const kind = provider.kind ?? 'openai';
  const chosen =
    named ?? modelName((config.agents?.defaults as { model?: unknown } | undefined)?.model) ?? provider.model;
  const apiKey =
    provider.apiKey ?? env[provider.apiKeyEnv ?? (kind === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY')];
  if (!chosen || !apiKey) return undefined;
  const model = chosen.startsWith(`${kind}/`) ? chosen.slice(kind.length + 1) : chosen;
  if (/^(openai|anthropic)\//.test(model)) return undefined;
  return { kind, model, apiKey, ...(provider.baseURL ? { baseURL: provider.baseURL } : {}) };
}

/** A model setting as OpenClaw writes it: `"provider/model"` or `{ primary }`. */
function modelName(value: unknown): string | undefined {
  const named = typeof value === 'string' ? value : (value as { primary?: unknown } | undefined)?.primary;
  return typeof named === 'string' && named ? named : undefined;
}

/** The tools that need a gateway running turns: sessions (and cron, given its folder). */
function gatewayTools(
  config: ToolSearchConfig,
  { sessionHost, cronDir, state }: { sessionHost?: SessionHost; cronDir?: string; state?: StateStore },
  workspace: string,
): KernelPlugin[] {
  if (!sessionHost) return [];
  const agents = (config.agents?.list ?? []) as readonly AgentEntry[];
  return [
    sessionsPlugin({
      host: sessionHost,
      workspace,
      visibility: sessionsConfig(config).visibility,
      maxPingPongTurns: config.session?.agentToAgent?.maxPingPongTurns ?? MAX_PING_PONG_TURNS,
      attachments: (config.tools as { sessions_spawn?: { attachments?: unknown } } | undefined)?.sessions_spawn
        ?.attachments,
      sandboxVisibility: (config.agents?.defaults as { sandbox?: { sessionToolsVisibility?: unknown } } | undefined)
        ?.sandbox?.sessionToolsVisibility,
      agents,
      limits: spawnLimits(config.agents?.defaults),
      // The telemetry plugin counts into the same store: session_status shows the counts of every replica; and
      // maxChildrenPerAgent is held there too (an atomic increment per spawn), so replicas cannot pass it together.
      ...(state
        ? {
            state,
            statusFields: async (record: SessionRecord) => ({
              counters: await sessionCounters(state, record.sessionId),
            }),
          }
        : {}),
    }),
    ...(cronDir
      ? [
          cronPlugin({
            host: sessionHost,
            dir: cronDir,
            agents,
            ...(state ? { state } : {}),
            ...cronLimits(config.cron),
          }),
        ]
      : []),
  ];
}

/** OpenClaw's `cron.minIntervalMs` / `cron.maxJobsPerAgent`, when set (the cron plugin checks them). */
function cronLimits(cron: ToolSearchConfig['cron']): { minIntervalMs?: number; maxJobsPerAgent?: number } {
  const { minIntervalMs, maxJobsPerAgent } = cron ?? {};
  return {
    ...(minIntervalMs !== undefined ? { minIntervalMs: minIntervalMs as number } : {}),
    ...(maxJobsPerAgent !== undefined ? { maxJobsPerAgent: maxJobsPerAgent as number } : {}),
  };
}

/** OpenClaw's `agents.defaults.pdfMaxBytesMb` / `pdfMaxPages`, when set. */
function pdfLimits(defaults: unknown): { maxBytesMb?: number; maxPages?: number } {
  const { pdfMaxBytesMb, pdfMaxPages } = (defaults ?? {}) as { pdfMaxBytesMb?: unknown; pdfMaxPages?: unknown };
  return {
    ...(typeof pdfMaxBytesMb === 'number' && pdfMaxBytesMb > 0 ? { maxBytesMb: pdfMaxBytesMb } : {}),
    ...(typeof pdfMaxPages === 'number' && pdfMaxPages >= 1 ? { maxPages: Math.floor(pdfMaxPages) } : {}),
  };
}

/** OpenClaw's `agents.defaults.subagents.maxSpawnDepth` / `maxChildrenPerAgent` / `runTimeoutSeconds`, when set. */
function spawnLimits(defaults: unknown): { maxSpawnDepth?: number; maxChildren?: number; runTimeoutSeconds?: number } {
  const { maxSpawnDepth, maxChildrenPerAgent, runTimeoutSeconds } = ((defaults as { subagents?: unknown } | undefined)
    ?.subagents ?? {}) as Record<string, unknown>;
  return {
    ...(typeof runTimeoutSeconds === 'number' && runTimeoutSeconds > 0
      ? { runTimeoutSeconds: Math.floor(runTimeoutSeconds) }
      : {}),
    ...(typeof maxSpawnDepth === 'number' && maxSpawnDepth >= 0 ? { maxSpawnDepth: Math.floor(maxSpawnDepth) } : {}),
    ...(typeof maxChildrenPerAgent === 'number' && maxChildrenPerAgent >= 1
      ? { maxChildren: Math.floor(maxChildrenPerAgent) }
      : {}),
  };
}

/** OpenClaw's `tools.sessions` (`visibility`); the plugin checks the value. */
function sessionsConfig(config: ToolSearchConfig): { visibility?: unknown } {
  const sessions = (config.tools as { sessions?: unknown } | undefined)?.sessions;
  return sessions && typeof sessions === 'object' ? (sessions as { visibility?: unknown }) : {};
}

function withoutApplyPatch(exec: Record<string, unknown>): Record<string, unknown> {
  const { applyPatch: _applyPatch, ...rest } = exec;
  return rest;
}
