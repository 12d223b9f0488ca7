/**
 * The Tools document's inventory tools that `plugins.core` cannot offer. Its own file so the preset's public
 * surface names them without loading the core tools (and their HTTP, browser and PDF libraries).
 */
import { ErrorCode, type KernelPlugin } from '@tool-search/kernel';
import { GATEWAY_TOOL_ID } from '@tool-search/plugin-gateway';

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

export function unavailableToolsPlugin(gatewayRuns: boolean): KernelPlugin {
  return {
    name: '@tool-search/preset/unavailable-tools',
    apply({ hooks }) {
      hooks.listTools.tap((sink) => {
        for (const [name, message] of Object.entries(UNAVAILABLE_CORE_TOOLS)) {
          sink.diagnostic({
            code: ErrorCode.TOOL_NOT_CONFIGURED,
            level: 'info',
            message,
            toolId: `core:core:${name}`,
            details: { tool: name },
          });
        }
        if (!gatewayRuns)
          sink.diagnostic({
            code: ErrorCode.TOOL_NOT_CONFIGURED,
            level: 'info',
            message: GATEWAY_TOOL_ABSENT,
            toolId: GATEWAY_TOOL_ID,
            details: { tool: 'gateway' },
          });
      });
    },
  };
}
