/**
 * `alwaysVisible` pins: config-chosen tools whose full schema stays visible in
 * every search mode, next to the mode's search tools, as `direct-only` tools
 * are (but chosen by the operator, not by the plugin that lists the tool).
 * Pins are looked up in the run's effective catalog, after policy: a pinned
 * tool that policy denies is not there, so it stays hidden. Pinned tools stay
 * searchable too; the kernel routes a call on a pinned name like a direct call.
 */
import {
  ErrorCode,
  STAGE,
  type ExposedTool,
  type KernelPlugin,
  type RunApi,
  type ToolDescriptor,
} from '@tool-search/kernel';
import { SEARCH_MODES } from '@tool-search/config';
import { PresetErrors } from './errors.js';

export const PINS_PLUGIN = '@tool-search/preset:always-visible';

/** The exposure modes pins apply to (`direct` shows every tool already). */
export const PIN_MODES: readonly string[] = SEARCH_MODES;

export interface AlwaysVisibleOptions {
  /** `tools.alwaysVisible`: tool ids (`mcp:github:create_issue`) or names (`create_issue`, every tool of that name). */
  readonly tools?: readonly string[];
  /** `mcp.servers.<name>.alwaysVisible`: `true` pins every tool of that server, a list pins those tool names of it. */
  readonly servers?: Readonly<Record<string, true | readonly string[]>>;
}

/** True when some pin asks for this tool. */
export function isPinned(tool: ToolDescriptor, options: AlwaysVisibleOptions): boolean {
  if (options.tools?.some((entry) => entry === tool.id || entry === tool.name)) return true;
  if (tool.source !== 'mcp') return false;
  const server = options.servers?.[tool.meta?.mcpServer ?? tool.owner];
  return server === true || (Array.isArray(server) && server.includes(tool.name));
}

/** The pins no tool of this catalog answers, as config paths (`tools.alwaysVisible[0]`, `mcp.servers.github.alwaysVisible`). */
export function unmatchedPins(catalog: readonly ToolDescriptor[], options: AlwaysVisibleOptions): string[] {
  const out: string[] = [];
  (options.tools ?? []).forEach((entry, i) => {
    if (!catalog.some((tool) => tool.id === entry || tool.name === entry))
      out.push(`tools.alwaysVisible[${i}] "${entry}"`);
  });
  for (const [server, pins] of Object.entries(options.servers ?? {})) {
    const own = catalog.filter((tool) => tool.source === 'mcp' && (tool.meta?.mcpServer ?? tool.owner) === server);
    if (pins === true) {
      if (!own.length) out.push(`mcp.servers.${server}.alwaysVisible`);
      continue;
    }
    pins.forEach((name, i) => {
      if (!own.some((tool) => tool.name === name)) out.push(`mcp.servers.${server}.alwaysVisible[${i}] "${name}"`);
    });
  }
  return out;
}

/** Says once per run which pins show nothing (denied by policy, misspelled, or the server is down). */
function reportUnmatched(run: RunApi, options: AlwaysVisibleOptions, reported: Set<string>): void {
  if (reported.has(run.info.runId)) return;
  reported.add(run.info.runId);
  if (reported.size > 10_000) reported.clear();
  const missing = unmatchedPins(run.catalog, options);
  if (!missing.length) return;
  run.emit({
    type: 'diagnostic',
    diagnostic: {
      code: PresetErrors.PIN_NOT_VISIBLE,
      level: 'warning',
      message: `alwaysVisible pins that show no tool in this run: ${missing.join(', ')}; "tool-search tools explain <name>" says whether it is listed and which policy rule dropped it (a denied tool stays hidden)`,
      plugin: PINS_PLUGIN,
      hook: 'materialize',
      details: { pins: missing },
    },
  });
}

export function alwaysVisiblePlugin(options: AlwaysVisibleOptions): KernelPlugin {
  const reported = new Set<string>();
  return {
    name: PINS_PLUGIN,
    apply({ hooks }) {
      for (const mode of PIN_MODES) {
        // FINAL: after the mode built its draft, so its control tools keep their names.
        hooks.materialize.for(mode).tap({ stage: STAGE.FINAL }, (draft, ctx) => {
          if (draft.fallback) return draft; // the mode it falls back to pins them
          reportUnmatched(ctx.run, options, reported);
          const names = new Set(draft.tools.map((tool) => tool.name));
          const shown = new Set(draft.tools.flatMap((tool) => (tool.toolId ? [tool.toolId] : [])));
          const pinned: ExposedTool[] = [];
          // ctx.run.catalog is the effective catalog: policy has already removed denied tools.
          for (const tool of ctx.run.catalog) {
            // A hidden tool (an MCP App's app-only one) is never the model's, pinned or not.
            if (tool.catalogMode === 'hidden' || shown.has(tool.id) || !isPinned(tool, options)) continue;
            if (names.has(tool.name)) {
              ctx.run.emit({
                type: 'diagnostic',
                diagnostic: {
                  code: ErrorCode.TOOL_NAME_SHADOWED,
                  level: 'warning',
                  message: `Pinned tool ${tool.id} is not shown under "${tool.name}": the ${mode} exposure already uses that name; it stays callable by id`,
                  plugin: PINS_PLUGIN,
                  toolId: tool.id,
                  hook: 'materialize',
                },
              });
              continue;
            }
            names.add(tool.name);
            shown.add(tool.id);
            pinned.push({
              name: tool.name,
              description: tool.description,
              inputSchema: tool.inputSchema,
              toolId: tool.id,
            });
          }
          return pinned.length ? { ...draft, tools: [...draft.tools, ...pinned] } : draft;
        });
      }
    },
  };
}
