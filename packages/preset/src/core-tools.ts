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
import { ConfigError, ErrorCode, type KernelPlugin } from '@tool-search/kernel';
import type { ToolSearchConfig } from '@tool-search/config';
import { fsPlugin } from '@tool-search/plugin-fs';
import { execPlugin } from '@tool-search/plugin-exec';
import { memoryPlugin } from '@tool-search/plugin-memory';
import { pdfPlugin } from '@tool-search/plugin-pdf';
import { webPlugin, type WebConfig } from '@tool-search/plugin-web';
import { MAX_PING_PONG_TURNS, sessionsPlugin, type AgentEntry } from '@tool-search/plugin-sessions';
import { cronPlugin } from '@tool-search/plugin-cron';
import { imagePlugin } from '@tool-search/plugin-image';
import { browserPlugin, type BrowserConfig } from '@tool-search/plugin-browser';
import type { SessionHost, SessionRecord } from '@tool-search/sessions';
import { sessionCounters } from '@tool-search/telemetry';
import type { StateStore } from '@tool-search/state';
import { gatewayPlugin, GATEWAY_TOOL_ID, type GatewayControl } from '@tool-search/plugin-gateway';

export const CORE_PLUGIN_ID = 'core';

/**
 * The core tool plugins for `plugins.core`. `fakeCore`: the fake catalog adds its core tools in this config.
 * `host.sessionHost`: a gateway runs turns here, so the session tools (`tools.sessions`, `agents.list`) are listed,
 * and `cron` too when `host.cronDir` says where its jobs persist.
 */
export function coreToolPlugins(
  core: { workspace?: string },
  config: ToolSearchConfig,
  fakeCore: boolean,
  host: { sessionHost?: SessionHost; cronDir?: string; state?: StateStore; gateway?: GatewayControl } = {},
): KernelPlugin[] {
  if (fakeCore) {
    throw new ConfigError(
      '/plugins/core',
      'coreConflict',
      'plugins.core (the real core tools) and the fake catalog\'s core tools have the same ids; set plugins["fake-catalog"].core to false or remove one of them',
      { details: { plugin: CORE_PLUGIN_ID, conflictsWith: '/plugins/fake-catalog/core' } },
    );
  }
  // A config file's loader resolves workspace against its folder; a config built in code means the working folder.
  const workspace = core.workspace ?? process.cwd();
  const exec = config.tools?.exec;
  return [
    fsPlugin({ workspace, ...(exec?.applyPatch ? { applyPatch: exec.applyPatch } : {}) }),
    execPlugin({
      workspace,
      ...(exec ? { exec: withoutApplyPatch(exec) } : {}),
      ...(config.tools?.elevated ? { elevated: config.tools.elevated } : {}),
      agents: config.agents?.list ?? [],
      ...(host.state ? { state: host.state } : {}),
    }),
    webPlugin({ web: config.tools?.web as WebConfig | undefined }),
    memoryPlugin({ workspace }),
    pdfPlugin({ workspace, ...pdfLimits(config.agents?.defaults) }),
    browserPlugin({ browser: config.browser as BrowserConfig | undefined, workspace }),
    unavailableToolsPlugin(host.gateway !== undefined),
    ...imageTool(workspace, config),
    ...gatewayTools(config, host, workspace),
    // The gateway tool manages the gateway it runs in: listed only there.
    ...(host.gateway ? [gatewayPlugin({ control: host.gateway, restart: config.commands?.restart !== false })] : []),
  ];
}

/**
 * `image` when `agents.defaults.imageModel` names a model (a string or `{ primary }`; an `openai/` or `anthropic/`
 * prefix matching the provider is dropped) and `provider` has a key (`apiKey`, or the `apiKeyEnv` variable, else
 * OPENAI_API_KEY / ANTHROPIC_API_KEY by `provider.kind`).
 */
function imageTool(workspace: string, config: ToolSearchConfig, env: NodeJS.ProcessEnv = process.env): KernelPlugin[] {
  const configured = (config.agents?.defaults as { imageModel?: unknown } | undefined)?.imageModel;
  const named = typeof configured === 'string' ? configured : (configured as { primary?: unknown } | undefined)?.primary;
  const provider = config.provider;
  if (typeof named !== 'string' || !named || !provider) return [];
  const kind = provider.kind ?? 'openai';
  const apiKey = provider.apiKey ?? env[provider.apiKeyEnv ?? (kind === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY')];
  if (!apiKey) return [];
  const model = named.startsWith(`${kind}/`) ? named.slice(kind.length + 1) : named;
  return [imagePlugin({ workspace, kind, model, apiKey, ...(provider.baseURL ? { baseURL: provider.baseURL } : {}) })];
}

/** The tools that need a gateway running turns: sessions (and cron, given its folder). */
function gatewayTools(config: ToolSearchConfig, { sessionHost, cronDir, state }: { sessionHost?: SessionHost; cronDir?: string; state?: StateStore }, workspace: string): KernelPlugin[] {
  if (!sessionHost) return [];
  const agents = (config.agents?.list ?? []) as readonly AgentEntry[];
  return [
    sessionsPlugin({
      host: sessionHost,
      workspace,
      visibility: sessionsConfig(config).visibility,
      maxPingPongTurns: config.session?.agentToAgent?.maxPingPongTurns ?? MAX_PING_PONG_TURNS,
      attachments: (config.tools as { sessions_spawn?: { attachments?: unknown } } | undefined)?.sessions_spawn?.attachments,
      sandboxVisibility: ((config.agents?.defaults as { sandbox?: { sessionToolsVisibility?: unknown } } | undefined)?.sandbox)?.sessionToolsVisibility,
      agents,
      limits: spawnLimits(config.agents?.defaults),
      // The telemetry plugin counts into the same store: session_status shows the counts of every replica.
      ...(state ? { statusFields: async (record: SessionRecord) => ({ counters: await sessionCounters(state, record.sessionId) }) } : {}),
    }),
    ...(cronDir ? [cronPlugin({ host: sessionHost, dir: cronDir, agents, ...(state ? { state } : {}) })] : []),
  ];
}

/**
 * The Tools document's inventory tools that need systems Tool Search does not have: never listed, and a diagnostic
 * each says why and what would make it available (as `web_search`, `exec` and `browser` explain their absence).
 */
export const UNAVAILABLE_CORE_TOOLS: Readonly<Record<string, string>> = Object.freeze({
  message:
    'message is not listed: it sends through the chat channels (Discord, Slack, Telegram, WhatsApp…) an OpenClaw gateway connects, and this gateway connects none; it becomes available only with a channel integration, which Tool Search does not ship',
  canvas:
    'canvas is not listed: it drives the Canvas surface of a paired OpenClaw node (the macOS, iOS or Android app), and no node can pair with this gateway; it becomes available only with node pairing, which Tool Search does not ship',
  nodes:
    'nodes is not listed: it lists and commands paired OpenClaw nodes (camera, screen, location, notifications), and no node can pair with this gateway; it becomes available only with node pairing, which Tool Search does not ship',
});

/** Why `gateway` is missing outside `tool-search gateway` (the CLI, `serve mcp`, an embedding). */
export const GATEWAY_TOOL_ABSENT =
  'gateway is not listed: it restarts and reconfigures the gateway it runs in, and no gateway runs in this process; it is listed inside `tool-search gateway`';

function unavailableToolsPlugin(gatewayRuns: boolean): KernelPlugin {
  return {
    name: '@tool-search/preset/unavailable-tools',
    apply({ hooks }) {
      hooks.listTools.tap((sink) => {
        for (const [name, message] of Object.entries(UNAVAILABLE_CORE_TOOLS)) {
          sink.diagnostic({ code: ErrorCode.TOOL_NOT_CONFIGURED, level: 'info', message, toolId: `core:core:${name}`, details: { tool: name } });
        }
        if (!gatewayRuns) sink.diagnostic({ code: ErrorCode.TOOL_NOT_CONFIGURED, level: 'info', message: GATEWAY_TOOL_ABSENT, toolId: GATEWAY_TOOL_ID, details: { tool: 'gateway' } });
      });
    },
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
  const { maxSpawnDepth, maxChildrenPerAgent, runTimeoutSeconds } = ((defaults as { subagents?: unknown } | undefined)?.subagents ?? {}) as Record<string, unknown>;
  return {
    ...(typeof runTimeoutSeconds === 'number' && runTimeoutSeconds > 0 ? { runTimeoutSeconds: Math.floor(runTimeoutSeconds) } : {}),
    ...(typeof maxSpawnDepth === 'number' && maxSpawnDepth >= 0 ? { maxSpawnDepth: Math.floor(maxSpawnDepth) } : {}),
    ...(typeof maxChildrenPerAgent === 'number' && maxChildrenPerAgent >= 1 ? { maxChildren: Math.floor(maxChildrenPerAgent) } : {}),
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
