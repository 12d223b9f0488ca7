/**
 * `mcpPlugin`: MCP servers as a tool source. Taps `listTools` (every server
 * connects and lists in parallel, each isolated: a failing one becomes an
 * `MCP_SERVER_FAILED` diagnostic and the others still deliver) and
 * `shutdown` (every server process and session is ended).
 */
import type { Diagnostic, KernelPlugin, Logger, ToolDefinition } from '@tool-search/kernel';
import type { Tool } from '@modelcontextprotocol/client';
import { ErrorCode, ToolSearchError, errorMessage } from '@tool-search/kernel';
import { ServerConnection, type McpServerStatus } from './connection.js';
import { createDownstream, type McpDownstream } from './downstream.js';
import type { ToolListing } from './list-tools.js';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_FIRST_START_TIMEOUT_MS,
  DEFAULT_MAX_LIST_PAGES,
  DEFAULT_MAX_TOOLS_PER_SERVER,
  DEFAULT_SHUTDOWN_GRACE_MS,
  parseMcpOptions,
  type McpPluginOptions,
} from './options.js';
import { memoryTokenStore } from './token-store.js';
import { traceMeta } from './trace-context.js';
import { toDefinition } from './to-definition.js';
import { McpErrors } from './errors.js';
import { SkillShelves } from './skills.js';

export const MCP_PLUGIN_NAME = '@tool-search/plugin-mcp';

export interface McpPlugin extends KernelPlugin {
  /** Where each server stands (state, transport, pids, last error): for `doctor` commands and tests. */
  servers(): readonly McpServerStatus[];
  /** Resources, prompts, completions, logging and events of the servers, for a front end (serve mcp). */
  readonly downstream: McpDownstream;
}

/**
 * One definition per listed MCP tool object: the connection keeps the same
 * tool objects until the server says its list changed, so runs reuse the same
 * definitions and the kernel and the search index reuse their per-tool work.
 */
const definitions = new WeakMap<object, ToolDefinition>();

function definitionOf(connection: ServerConnection, tool: Tool): ToolDefinition {
  let definition = definitions.get(tool);
  if (!definition) {
    definition = toDefinition(connection.name, tool, (args, ctx) =>
      connection.during(ctx, () => connection.callTool(tool, args, ctx.signal, ctx.scope?.mcp, traceMeta(ctx))),
    );
    definitions.set(tool, definition);
  }
  return definition;
}

export function mcpPlugin(options: McpPluginOptions): McpPlugin {
  // The callback is not data: validate the rest, keep the function as given.
  const { onToolsChanged, tokenStore, authorizer, handlers, ...data } = options ?? ({} as McpPluginOptions);
  if (onToolsChanged !== undefined && typeof onToolsChanged !== 'function') {
    throw new ToolSearchError(
      ErrorCode.OPTIONS_INVALID,
      '@tool-search/plugin-mcp option onToolsChanged must be a function',
      { plugin: MCP_PLUGIN_NAME },
    );
  }
  const parsed = parseMcpOptions(data);
  const settings = {
    connectTimeoutMs: parsed.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    firstStartTimeoutMs: parsed.firstStartTimeoutMs ?? DEFAULT_FIRST_START_TIMEOUT_MS,
    callTimeoutMs: parsed.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    shutdownGraceMs: parsed.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
    limits: {
      maxTools: parsed.maxToolsPerServer ?? DEFAULT_MAX_TOOLS_PER_SERVER,
      maxPages: parsed.maxListPages ?? DEFAULT_MAX_LIST_PAGES,
    },
    ...(onToolsChanged ? { onToolsChanged } : {}),
    tokenStore: tokenStore ?? memoryTokenStore(),
    ...(authorizer ? { authorizer } : {}),
    ...(handlers ? { handlers } : {}),
    ...(parsed.roots ? { roots: parsed.roots } : {}),
  };
  const connections: ServerConnection[] = [];
  // Skills (SEP-2640) of the servers that declare the extension: listed with the tools, as source `skill`.
  const skillShelves = new SkillShelves();
  let warn: Logger['warn'] = () => undefined; // the plugin's logger, once applied
  // Resources, templates and prompts listings are bounded like tool listings.
  const downstream = createDownstream(() => connections, {
    maxItems: settings.limits.maxTools,
    maxPages: settings.limits.maxPages,
    truncated: (server, list, limit, kept) =>
      warn(`MCP server "${server}" listed more ${list} than ${limit} allows; kept the first ${kept}`, {
        code: McpErrors.MCP_LIST_TRUNCATED,
        server,
        list,
        limit,
        kept,
      }),
  });

  return {
    name: MCP_PLUGIN_NAME,
    servers: () => connections.map((connection) => connection.status()),
    downstream,
    apply({ hooks, logger }) {
      warn = (message, data) => logger.warn(message, data);
      for (const [name, config] of Object.entries(parsed.servers)) {
        connections.push(new ServerConnection(name, config, { ...settings, logger, downstream }));
      }
      // Skills are resources: a server's `resources/list_changed` may mean new skills, so they are listed again.
      const unwatch = downstream.on((event) => {
        if (event.type !== 'resources-changed') return;
        const client = connections.find((connection) => connection.name === event.server)?.client;
        if (skillShelves.forget(client)) onToolsChanged?.(event.server);
      });

      hooks.listTools.tapPromise(async (sink) => {
        await Promise.all(
          connections.map(async (connection) => {
            try {
              const listing = await connection.listTools();
              sink.add(listing.tools.map((tool) => definitionOf(connection, tool)));
              for (const diagnostic of listingDiagnostics(connection.name, listing)) sink.diagnostic(diagnostic);
              const skills = await skillShelves.list(connection, {
                maxSkills: settings.limits.maxTools,
                timeoutMs: settings.connectTimeoutMs,
              });
              sink.add(skills.definitions);
              for (const diagnostic of skills.diagnostics) sink.diagnostic(diagnostic);
            } catch (error) {
              const coded = ToolSearchError.isInstance(error) ? error : undefined;
              sink.diagnostic({
                code: coded?.code ?? McpErrors.MCP_SERVER_FAILED,
                // Still starting is not a failure: the server joins when it is ready.
                level: coded?.code === McpErrors.MCP_SERVER_STARTING ? 'warning' : 'error',
                message: errorMessage(error),
                details: { server: connection.name, ...coded?.details },
              });
            }
          }),
        );
      });

      hooks.shutdown.tapPromise(async () => {
        unwatch();
        await Promise.all(connections.map((connection) => connection.close()));
      });
    },
  };
}

/** Each dropped tool by name, and a cut listing with the bound that cut it and how to raise it. */
function listingDiagnostics(server: string, listing: ToolListing): Diagnostic[] {
  const out: Diagnostic[] = listing.dropped.map(({ tool, problem }) => ({
    code: ErrorCode.TOOL_INVALID,
    level: 'warning',
    message: `MCP server "${server}" listed an invalid tool "${tool}" (${problem}); it is dropped, the server's other tools stay`,
    details: { server, tool, problem },
  }));
  if (listing.truncated) {
    const { limit, value } = listing.truncated;
    out.push({
      code: McpErrors.MCP_LIST_TRUNCATED,
      level: 'warning',
      message: `MCP server "${server}" listed more than ${limit} (${value}); its listing stops there with ${listing.tools.length} tools (raise ${limit} to keep more)`,
      details: { server, limit, value, kept: listing.tools.length },
    });
  }
  return out;
}
