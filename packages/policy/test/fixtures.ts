/** A small in-test tool source: the OpenClaw core inventory plus some plugin and MCP tools. */
import {
  createKernel,
  type KernelPlugin,
  type Run,
  type RunRequest,
  type ToolDefinition,
  type ToolSource,
} from '@tool-search/kernel';
import { policyPlugin, type PolicyOptions } from '../src/index.js';

export const INVENTORY = [
  'read',
  'write',
  'edit',
  'apply_patch',
  'exec',
  'bash',
  'process',
  'web_search',
  'web_fetch',
  'browser',
  'canvas',
  'nodes',
  'image',
  'pdf',
  'message',
  'cron',
  'gateway',
  'sessions_list',
  'sessions_history',
  'sessions_send',
  'sessions_spawn',
  'session_status',
  'agents_list',
  'memory_search',
  'memory_get',
] as const;

export interface ToolSpec {
  readonly name: string;
  readonly groups?: readonly string[];
}

export interface CatalogSpec {
  readonly core?: readonly string[];
  /** Plugin id → tools. */
  readonly plugins?: Readonly<Record<string, readonly (string | ToolSpec)[]>>;
  /** MCP server → tool names. */
  readonly mcp?: Readonly<Record<string, readonly string[]>>;
  /** MCP server → skill names (source `skill`, SEP-2640). */
  readonly skills?: Readonly<Record<string, readonly string[]>>;
}

export const DEFAULT_CATALOG: CatalogSpec = {
  core: INVENTORY,
  plugins: {
    'fake-catalog': ['fc_search', 'fc_lookup'],
    chat: [
      { name: 'slack', groups: ['group:chat'] },
      { name: 'discord', groups: ['group:chat'] },
    ],
  },
  mcp: { github: ['create_issue', 'list_prs'], notion: ['search_pages'] },
};

/** Tool definitions for a spec; every tool records its id in `executed` when it runs. */
export function definitions(spec: CatalogSpec, executed: string[] = []): ToolDefinition[] {
  const make = (source: ToolSource, owner: string, tool: string | ToolSpec): ToolDefinition => {
    const { name, groups } = typeof tool === 'string' ? { name: tool, groups: undefined } : tool;
    const id = `${source}:${owner}:${name}`;
    return {
      name,
      source,
      owner,
      description: `${name} (${id})`,
      inputSchema: { type: 'object' },
      ...(groups ? { meta: { groups } } : {}),
      execute: () => {
        executed.push(id);
        return { content: [{ type: 'text', text: id }] };
      },
    };
  };
  return [
    ...(spec.core ?? []).map((name) => make('core', 'core', name)),
    ...Object.entries(spec.plugins ?? {}).flatMap(([owner, tools]) => tools.map((tool) => make('plugin', owner, tool))),
    ...Object.entries(spec.mcp ?? {}).flatMap(([server, tools]) => tools.map((tool) => make('mcp', server, tool))),
    ...Object.entries(spec.skills ?? {}).flatMap(([server, names]) => names.map((name) => make('skill', server, name))),
  ];
}

export function inventoryPlugin(spec: CatalogSpec = DEFAULT_CATALOG, executed: string[] = []): KernelPlugin {
  const tools = definitions(spec, executed);
  return {
    name: 'test-inventory',
    apply({ hooks }) {
      hooks.listTools.tap((sink) => sink.add(tools));
    },
  };
}

/** Creates a kernel with the inventory and the policy, and one run. */
export async function runWith(
  options: PolicyOptions,
  request: RunRequest = {},
  spec: CatalogSpec = DEFAULT_CATALOG,
): Promise<Run> {
  const kernel = createKernel({ plugins: [inventoryPlugin(spec), policyPlugin(options)] });
  return kernel.createRun(request);
}

/** Names in the effective catalog, sorted. */
export function names(run: Run): string[] {
  return run.catalog.map((tool) => tool.name).sort();
}

export function ids(run: Run): string[] {
  return run.catalog.map((tool) => tool.id).sort();
}

export const CORE = (...tools: string[]) => tools.map((name) => `core:core:${name}`);
